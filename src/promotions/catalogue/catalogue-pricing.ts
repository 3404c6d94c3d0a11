/**
 * Catalogue promotions (issue 32): the promotions that are a price of the product itself, the same for every
 * shopper and every cart, so the storefront can show them as the variant's sale price and the catalogue index can
 * filter and sort on them. Pure (no Nest, no SQL).
 *
 * A promotion is a catalogue promotion when it is enabled, needs no code, has no usage limit, its conditions are
 * only "the line matches" (`lines` selectors, or none: the whole catalogue) and its actions only `percent_off_lines`
 * / `fixed_off_lines`. Everything else (minimum quantities, customer groups, member prices, codes, sets) depends on
 * the cart or the shopper and stays the cart's business.
 *
 * A variant's sale price is what the engine itself gives one unit of it in a cart holding nothing else, with the
 * catalogue promotions active at that moment: the same matching, the same combining (`combines_with.product`) and
 * choice of the largest discount, the same rounding (once, in minor units of the default currency).
 */
import { toMinor } from '../../pricing/index.js';
import { compilePromotions, lineKeys } from '../engine/compile.js';
import { evaluatePromotions } from '../engine/evaluate.js';
import type { EngineCart, EngineLine, LineFacet, LineMatcher, LineSelector, PromotionDefinition } from '../engine/types.js';
import { toEngineRules } from '../promotion-rules.js';

/** A promotion as stored (wire form, decimals), with what makes it a catalogue promotion and its window. */
export interface StoredPromotion extends PromotionDefinition {
  enabled: boolean;
  code: string | null;
  usageLimit: number | null;
  usageLimitPerCustomer: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** A visible variant with what a line selector can match it by. */
export interface CatalogueVariant {
  variantId: string;
  productId: string;
  /** Regular gross price, default currency, decimal string. */
  gross: string;
  collectionIds: string[];
  /** With their ancestors. */
  categoryIds: string[];
  manufacturerId: string | null;
  /** Each facet value by id and by key. */
  facets: Partial<Record<LineFacet, string[]>>;
  /** Per custom field, every option of the variant by key and by id. */
  customFields: Record<string, string[]>;
}

export interface SalePrice {
  variantId: string;
  productId: string;
  /** Decimal string with the currency's precision. */
  gross: string;
  promotionIds: string[];
}

const LINE_ACTIONS = new Set(['percent_off_lines', 'fixed_off_lines']);

/** True for a promotion that is a catalogue price (see the file header), whatever its time window. */
export function isCataloguePromotion(p: StoredPromotion): boolean {
  return (
    p.enabled &&
    p.code === null &&
    p.usageLimit === null &&
    p.usageLimitPerCustomer === null &&
    p.conditions.every((c) => c.type === 'lines') &&
    p.actions.length > 0 &&
    p.actions.every((a) => LINE_ACTIONS.has(a.type))
  );
}

/** True when the promotion's window holds instant `at` (`starts_at` inclusive, `ends_at` exclusive). */
export function activeAt(p: Pick<StoredPromotion, 'startsAt' | 'endsAt'>, at: Date): boolean {
  return (p.startsAt === null || p.startsAt <= at) && (p.endsAt === null || p.endsAt > at);
}

/** Catalogue promotions in force at `at`, in the engine's units (minor units of a currency with `precision` decimals). */
export function compileCatalogue(promotions: readonly StoredPromotion[], at: Date, precision: number) {
  const defs: PromotionDefinition[] = promotions
    .filter((p) => isCataloguePromotion(p) && activeAt(p, at))
    .map((p) => ({ id: p.id, name: p.name, priority: p.priority, combinesWith: p.combinesWith, ...toEngineRules(p.conditions, p.actions, precision) }));
  return defs.length ? compilePromotions(defs) : null;
}

const NO_CART: Omit<EngineCart, 'lines'> = { customer: null, guestFirstOrder: false, shipping: null, codes: [], hasDiscountCode: false };

/** The sale prices of these variants (only those a promotion reduces) under the compiled catalogue promotions. */
export function salePricesOf(compiled: ReturnType<typeof compileCatalogue>, variants: readonly CatalogueVariant[], precision: number): SalePrice[] {
  if (!compiled) return [];
  const out: SalePrice[] = [];
  const scale = 10 ** precision;
  for (const v of variants) {
    const unit = toMinor(v.gross, precision);
    if (unit <= 0) continue;
    const line: EngineLine = {
      variantId: v.variantId,
      productId: v.productId,
      collectionIds: v.collectionIds,
      categoryIds: v.categoryIds,
      manufacturerId: v.manufacturerId,
      facets: v.facets,
      customFields: v.customFields,
      quantity: 1,
      unit,
      amount: unit,
    };
    // most variants match no promotion: one look-up per key, not an evaluation
    if (!compiled.unanchored.length && !lineKeys(line).some((k) => compiled.byKey.has(k))) continue;
    const result = evaluatePromotions(compiled, { ...NO_CART, lines: [line] });
    const off = result.lines[0].discount;
    if (off <= 0) continue;
    out.push({
      variantId: v.variantId,
      productId: v.productId,
      gross: ((unit - off) / scale).toFixed(precision),
      promotionIds: result.lines[0].promotions.map((p) => p.promotionId),
    });
  }
  return out;
}

const BY_IDS = ['product', 'variant', 'collection', 'category', 'manufacturer'] as const;

/**
 * One selector matching exactly what any of these selectors matches (a selector matches when any of its matchers
 * does, so the union is the matchers side by side): the matchers by ids are merged per type (each id once), the
 * others kept as they are, each once. A boundary where hundreds of catalogue promotions start or end then asks the
 * catalogue for their products in one statement instead of one per promotion.
 */
export function unionOfSelectors(selectors: readonly LineSelector[]): LineSelector {
  const ids = new Map<(typeof BY_IDS)[number], Set<string>>();
  const others = new Map<string, LineMatcher>();
  for (const selector of selectors)
    for (const m of selector) {
      if (m.type === 'facet' || m.type === 'custom_field') others.set(JSON.stringify(m), m);
      else {
        let set = ids.get(m.type);
        if (!set) ids.set(m.type, (set = new Set()));
        for (const id of m.ids) set.add(id);
      }
    }
  const merged: LineSelector = [];
  for (const type of BY_IDS) {
    const set = ids.get(type);
    if (set?.size) merged.push({ type, ids: [...set] });
  }
  return [...merged, ...others.values()];
}

/** Variants priced between two turns of the event loop (`salePricesInSlices`). */
export const PRICING_SLICE = 250;

/**
 * `salePricesOf` in slices of `slice` variants, giving the event loop back between them: a boundary of hundreds of
 * catalogue promotions prices thousands of variants (one engine evaluation each), and the instance's reads wait for
 * none of it longer than one slice. Each variant is priced on its own, so the answer is exactly `salePricesOf`'s.
 */
export async function salePricesInSlices(
  compiled: ReturnType<typeof compileCatalogue>,
  variants: readonly CatalogueVariant[],
  precision: number,
  slice = PRICING_SLICE,
): Promise<SalePrice[]> {
  const out: SalePrice[] = [];
  for (let i = 0; i < variants.length; i += slice) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const p of salePricesOf(compiled, variants.slice(i, i + slice), precision)) out.push(p);
  }
  return out;
}
