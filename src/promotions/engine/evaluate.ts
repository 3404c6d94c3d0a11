/**
 * The engine's entry: a cart and the compiled promotions in, each line's promotions, the discounts by promotion,
 * the promotions the buyer is close to and the gifts to suggest out. Pure and deterministic: the lines are put in a
 * canonical order (variant, product, unit price, quantity, amount) before anything else, so the answer does not
 * depend on the order of the lines, only on what they are; results come back in the input order.
 */
import { productEffect } from './actions.js';
import { percentOfMinor } from './allocate.js';
import { chooseBest, shippingApplies, type Candidate } from './combine.js';
import { lineKeys, selectorMatches, type CompiledPromotion, type CompiledPromotions } from './compile.js';
import type { AvailablePromotion, EngineCart, EngineHooks, EngineLine, EngineResult, LineResult, PromotionCondition, SuggestedGift } from './types.js';

/**
 * "Close to a promotion": the missing subtotal is at most this share of the minimum subtotal, and the missing units
 * at most this share of the minimum quantity or at most AVAILABLE_CLOSE_UNITS (60.00 of a 100.00 minimum is close,
 * 40.00 is not; 6 bottles of a case of 12 are close, 5 are not; 1 bottle of a deal on 3 is close: 2 more).
 */
export const AVAILABLE_MAX_MISSING_SHARE = 0.5;
export const AVAILABLE_CLOSE_UNITS = 2;
/** At most this many promotions are listed as close, the smallest share missing first (then the rank). */
export const AVAILABLE_LIMIT = 5;

/** The larger share of its threshold still missing (0 < share <= 1), or null when the buyer is not close. */
function closeShare(missingQuantity: number | null, minQuantity: number | null, missingSubtotal: number | null, minSubtotal: number | null): number | null {
  const q = missingQuantity !== null && minQuantity ? missingQuantity / minQuantity : 0;
  const s = missingSubtotal !== null && minSubtotal ? missingSubtotal / minSubtotal : 0;
  if (s > AVAILABLE_MAX_MISSING_SHARE) return null;
  if (q > AVAILABLE_MAX_MISSING_SHARE && (missingQuantity ?? 0) > AVAILABLE_CLOSE_UNITS) return null;
  return Math.max(q, s);
}

function compareLines(a: EngineLine, b: EngineLine): number {
  if (a.variantId !== b.variantId) return a.variantId < b.variantId ? -1 : 1;
  if (a.productId !== b.productId) return a.productId < b.productId ? -1 : 1;
  return a.unit - b.unit || a.quantity - b.quantity || a.amount - b.amount;
}

export function evaluatePromotions(compiled: CompiledPromotions, cart: EngineCart, hooks: EngineHooks = {}): EngineResult {
  const order = cart.lines.map((_, i) => i).sort((a, b) => compareLines(cart.lines[a], cart.lines[b]) || a - b);
  const lines = order.map((i) => cart.lines[i]);
  const keys = lines.map(lineKeys);
  const amounts = lines.map((l) => l.amount);
  const subtotal = amounts.reduce((s, v) => s + v, 0);
  const codes = new Set(cart.codes.map((c) => c.toUpperCase()));
  // every line (in canonical order) and their units: what a promotion without a lines condition matches
  const allLines: readonly number[] = lines.map((_, i) => i);
  const allQuantity = lines.reduce((s, l) => s + l.quantity, 0);

  // candidates: the unanchored promotions and those anchored on a key of some line (with the lines that hit it)
  const isCandidate = new Uint8Array(compiled.list.length);
  const anchorHits = new Map<number, number[]>();
  for (const r of compiled.unanchored) isCandidate[r] = 1;
  keys.forEach((ks, line) => {
    for (const k of ks) {
      for (const r of compiled.byKey.get(k) ?? []) {
        isCandidate[r] = 1;
        const hits = anchorHits.get(r);
        if (!hits) anchorHits.set(r, [line]);
        else if (hits[hits.length - 1] !== line) hits.push(line);
      }
    }
  });

  const cands: Candidate[] = [];
  const close: Array<{ a: AvailablePromotion; share: number; rank: number }> = [];
  const gifts: Array<SuggestedGift & { rank: number }> = [];
  for (let r = 0; r < isCandidate.length; r++) {
    if (!isCandidate[r]) continue;
    const p = compiled.list[r];
    if (cart.hasDiscountCode && !p.def.combinesWith.discount_codes) continue;
    if (!p.codes.every((c) => codes.has(c))) continue;
    if (!p.otherConditions.every((c) => conditionHolds(c, cart, hooks))) continue;
    const matching = p.lineSelectors.length ? matchingLines(p, keys, anchorHits.get(r)) : allLines;
    if (p.lineSelectors.length && !matching.length) continue;
    const quantity = p.lineSelectors.length ? matching.reduce((s, i) => s + lines[i].quantity, 0) : allQuantity;
    const missingQuantity = p.minQuantity !== null && quantity < p.minQuantity ? p.minQuantity - quantity : null;
    const missingSubtotal = p.minSubtotal !== null && subtotal < p.minSubtotal ? p.minSubtotal - subtotal : null;
    if (missingQuantity !== null || missingSubtotal !== null) {
      const share = closeShare(missingQuantity, p.minQuantity, missingSubtotal, p.minSubtotal);
      if (share !== null) close.push({ a: { promotionId: p.def.id, name: p.def.name, missingQuantity, missingSubtotal }, share, rank: p.rank });
      continue;
    }
    const c = candidate(p, lines, keys, matching, subtotal, cart, hooks, gifts);
    if (c.own > 0) cands.push(c);
  }

  const { applied } = chooseBest(cands, amounts, cart.shipping);
  const appliedIds = new Set(applied.map((a) => a.candidate.p.def.id));
  const canonical: LineResult[] = lines.map(() => ({ discount: 0, promotions: [] }));
  const discounts: EngineResult['discounts'] = [];
  let linesDiscount = 0;
  let shippingDiscount = 0;
  for (const a of [...applied].sort((x, y) => x.candidate.p.rank - y.candidate.p.rank)) {
    if (a.amount <= 0) continue;
    const { def, promotionClass } = a.candidate.p;
    const onLines = a.amount - a.shipping;
    for (const [i, part] of [...a.lineParts].sort((x, y) => x[0] - y[0])) {
      canonical[i].discount += part;
      canonical[i].promotions.push({ promotionId: def.id, name: def.name, amount: part });
    }
    discounts.push({ promotionId: def.id, name: def.name, amount: a.amount, promotionClass, lines: onLines, shipping: a.shipping });
    linesDiscount += onLines;
    shippingDiscount += a.shipping;
  }
  const result: LineResult[] = new Array<LineResult>(lines.length);
  order.forEach((inputIndex, k) => (result[inputIndex] = canonical[k]));
  return {
    lines: result,
    discounts,
    linesDiscount,
    shippingDiscount,
    available: close
      .sort((x, y) => x.share - y.share || x.rank - y.rank)
      .slice(0, AVAILABLE_LIMIT)
      .map((c) => c.a),
    suggestedGifts: gifts.filter((g) => appliedIds.has(g.promotionId) || !cands.some((c) => c.p.def.id === g.promotionId)).map(({ rank: _rank, ...g }) => g),
  };
}

/** The lines matching every `lines` selector: found through the index when the first one is the anchor. */
function matchingLines(p: CompiledPromotion, keys: readonly string[][], hits: number[] | undefined): number[] {
  if (!p.lineSelectors.length) return keys.map((_, i) => i);
  // the anchor's hits match the first selector already: only the others are tested
  const anchored = hits !== undefined && p.anchor === p.lineSelectors[0];
  const from = anchored ? hits : keys.map((_, i) => i);
  if (anchored && p.lineSelectors.length === 1) return from;
  return from.filter((i) => p.lineSelectors.every((s, k) => (anchored && k === 0) || selectorMatches(s, keys[i])));
}

function conditionHolds(c: PromotionCondition, cart: EngineCart, hooks: EngineHooks): boolean {
  switch (c.type) {
    case 'customer_signed_in':
      return cart.customer !== null;
    case 'customer_group':
      return cart.customer !== null && cart.customer.groupIds.some((g) => c.group_ids.includes(g));
    case 'shipping_country':
      return cart.shipping?.country != null && c.countries.includes(cart.shipping.country);
    case 'shipping_zone':
      return (cart.shipping?.zones ?? []).some((z) => c.zones.includes(z));
    case 'first_order':
      return cart.customer ? cart.customer.firstOrder : cart.guestFirstOrder;
    case 'custom': {
      const handler = hooks.conditions?.get(c.name);
      return handler ? handler(c.params, cart) : false;
    }
    default:
      return true; // lines, quantities, subtotal and codes are checked by the caller
  }
}

function candidate(
  p: CompiledPromotion,
  lines: readonly EngineLine[],
  keys: readonly string[][],
  matching: readonly number[],
  subtotal: number,
  cart: EngineCart,
  hooks: EngineHooks,
  gifts: Array<SuggestedGift & { rank: number }>,
): Candidate {
  if (p.promotionClass === 'product') {
    const effect = productEffect(p, lines, keys, matching, hooks);
    for (const m of effect.missingGifts) {
      const action = p.def.actions[m.actionIndex];
      if (action.type === 'buy_x_get_y') gifts.push({ promotionId: p.def.id, name: p.def.name, selector: action.get, quantity: m.quantity, rank: p.rank });
    }
    return { p, own: effect.parts.reduce((s, v) => s + v, 0), parts: effect.parts, touched: effect.touched };
  }
  let own = 0;
  for (const a of p.def.actions) {
    if (a.type === 'percent_off_order') own += percentOfMinor(subtotal, a.percent);
    else if (a.type === 'fixed_off_order') own += Math.min(a.amount, subtotal);
    else if (a.type === 'shipping' && cart.shipping && shippingApplies(a, cart.shipping))
      own += a.amount !== null ? Math.min(a.amount, cart.shipping.amount) : percentOfMinor(cart.shipping.amount, a.percent ?? 100);
  }
  const cap = p.promotionClass === 'order' ? subtotal : (cart.shipping?.amount ?? 0);
  return { p, own: Math.min(own, cap), parts: null, touched: [] };
}
