import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { currencyRecordsOf, slugify } from '../../tenancy/index.js';
export { chunks, insertMany, upsert, type UpsertResult, type UpsertSpec } from '../../common/db/keyed-upsert.js';
import { insertMany, upsert } from '../../common/db/keyed-upsert.js';
import { arr, bad, bool, date, dec, key, money, num, obj, optObj, reqNum, reqStr, str, strArray, trans } from './import-input.js';
import { AppError } from '../../common/http/app-error.js';
import { safeHtmlTranslations } from '../../common/html/safe-html.js';
import { TRANSLATED_MAX_LENGTH } from './import-schema.js';
import { deleteImagesAndRatings, loadLookups, setProductCreatedAt, stockByVariantAndLocation } from '../repositories/catalogue-writer.repository.js';
export { loadLookups };

/** The catalogue's batched SQL writers (multi-row upsert by key) and the product writer, shared by the import and the admin API. */

export type KindCounts = Record<string, number>;

export const hash = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64url');
export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
export const round4 = (n: number) => Math.round((n + Number.EPSILON) * 10000) / 10000;

/**
 * Validates and writes a batch of CONTRACT 6 products with their variants, images, ratings and stock: the one writer
 * of products, shared by the import and the admin catalogue API. A 422 names the first bad member by its path.
 */
export async function writeProducts(m: EntityManager, tenantId: string, batch: unknown[], offset: number, s: ProductWriteState): Promise<void> {
  const { lang, lookups } = s;
  const ref = (map: Map<string, string>, v: unknown, path: string, what: string): string | null => {
    if (v === undefined || v === null) return null;
    const k = key(v, path);
    const id = map.get(k);
    if (!id) throw bad(path, `names no ${what} ("${k}")`);
    return id;
  };
  const productRows: unknown[][] = [];
  const children = new Map<string, { images: Array<{ src: string | null; alt: string | null; width: number; height: number }>; ratings: number[] }>();
  const variants: Array<{ productKey: string; row: unknown[]; stock: Array<[string, number]> | null }> = [];

  batch.forEach((raw, bi) => {
    const i = offset + bi;
    const p = s.paths ? s.paths.product(bi) : `products[${i}]`;
    const c = obj(raw, p);
    const pkey = key(c.key, `${p}.key`);
    if (s.seenProducts.has(pkey)) throw bad(`${p}.key`, `duplicates the key "${pkey}"`);
    s.seenProducts.add(pkey);
    const title = trans(c.title, `${p}.title`, lang, 500);
    if (Object.keys(title).length === 0) throw bad(`${p}.title`, 'is required');
    const categoryIds = arr(c.categories, `${p}.categories`).map((k, j) => ref(lookups.categories, k, `${p}.categories[${j}]`, 'category')!);
    const images = arr(c.images, `${p}.images`).map((rawImg, j) => {
      const q = `${p}.images[${j}]`;
      const img = obj(rawImg, q);
      return {
        src: reqStr(img.src, `${q}.src`, 2000),
        alt: str(img.alt, `${q}.alt`, 500),
        width: num(img.width, `${q}.width`, { min: 0, integer: true, max: 100000 }) ?? 0,
        height: num(img.height, `${q}.height`, { min: 0, integer: true, max: 100000 }) ?? 0,
      };
    });
    const ratings = arr(c.ratings, `${p}.ratings`).map((r, j) => reqNum(r, `${p}.ratings[${j}]`, { min: 1, max: 5, integer: true }));
    const rating = ratings.length ? round2(ratings.reduce((a, b) => a + b, 0) / ratings.length) : 0;
    const values = [
      pkey,
      str(c.handle, `${p}.handle`, 255) ?? slugify(title[lang] ?? Object.values(title)[0] ?? pkey),
      JSON.stringify(title),
      JSON.stringify(safeHtmlTranslations(trans(c.body_html, `${p}.body_html`, lang, TRANSLATED_MAX_LENGTH.text))),
      JSON.stringify(safeHtmlTranslations(trans(c.summary_html, `${p}.summary_html`, lang, TRANSLATED_MAX_LENGTH.text))),
      ref(lookups.manufacturers, c.manufacturer, `${p}.manufacturer`, 'manufacturer'),
      [...new Set(categoryIds)],
      ref(lookups.flags, c.flag, `${p}.flag`, 'flag'),
      strArray(c.tags, `${p}.tags`),
      bool(c.published, `${p}.published`, true),
      rating.toFixed(2),
      ratings.length,
      date(c.created_at, `${p}.created_at`) ?? new Date().toISOString(),
    ];
    const hashInput = [...values.slice(0, -1), c.created_at ?? null, images, ratings];
    // archived_at: an import of an archived product's key brings it back (archiving clears its hash, so it is rewritten)
    productRows.push([...values, null, hash(hashInput)]);
    children.set(pkey, { images, ratings });

    arr(c.variants, `${p}.variants`).forEach((rawV, j) => {
      const q = s.paths ? s.paths.variant(p, j) : `${p}.variants[${j}]`;
      const v = obj(rawV, q);
      const vkey = key(v.key, `${q}.key`);
      if (s.seenVariants.has(vkey)) throw bad(`${q}.key`, `duplicates the key "${vkey}"`);
      s.seenVariants.add(vkey);
      checkPriceCurrency(v.currency, `${q}.currency`, s.currency);
      const price = money(v.price, `${q}.price`);
      if (price === null) throw bad(`${q}.price`, 'is required');
      const compare = money(v.compare_at_price, `${q}.compare_at_price`);
      const tax = num(v.tax_rate, `${q}.tax_rate`, { min: 0, max: 100 }) ?? 0;
      const factor = 1 + tax / 100;
      const gross = s.includeTax ? price : round2(price * factor);
      const net = s.includeTax ? round4(price / factor) : price;
      const compareGross = compare === null ? null : s.includeTax ? compare : round2(compare * factor);
      const qr = optObj(v.quantity_rule, `${q}.quantity_rule`) ?? {};
      const optionIds: string[] = [];
      const cf = optObj(v.custom_fields, `${q}.custom_fields`) ?? {};
      for (const [fieldKey, rawVals] of Object.entries(cf)) {
        const fieldOptions = lookups.options.get(fieldKey);
        if (!fieldOptions) throw bad(`${q}.custom_fields.${fieldKey}`, `names no custom field ("${fieldKey}")`);
        const list = typeof rawVals === 'string' ? [rawVals] : arr(rawVals, `${q}.custom_fields.${fieldKey}`);
        list.forEach((ok, k) => {
          const optKey = key(ok, `${q}.custom_fields.${fieldKey}[${k}]`);
          const id = fieldOptions.get(optKey);
          if (!id) throw bad(`${q}.custom_fields.${fieldKey}[${k}]`, `names no option of ${fieldKey} ("${optKey}")`);
          if (!optionIds.includes(id)) optionIds.push(id);
        });
      }
      let stock: Array<[string, number]> | null = null;
      if (v.stock !== undefined && v.stock !== null) {
        stock = Object.entries(obj(v.stock, `${q}.stock`)).map(([loc, qty]) => [
          ref(lookups.locations, loc, `${q}.stock.${loc}`, 'location')!,
          reqNum(qty, `${q}.stock.${loc}`, { min: -1e9, max: 1e9 }),
        ]);
      }
      const row = [
        vkey,
        str(v.handle, `${q}.handle`, 255),
        str(v.sku, `${q}.sku`, 255),
        JSON.stringify(trans(v.title, `${q}.title`, lang, 500)),
        j,
        dec(price),
        dec(compare),
        dec(gross),
        dec(net),
        dec(compareGross),
        dec(tax, 3),
        bool(v.published, `${q}.published`, true),
        bool(v.active, `${q}.active`, true),
        ref(lookups.facets.colors, v.color, `${q}.color`, 'color'),
        ref(lookups.facets.regions, v.region, `${q}.region`, 'region'),
        ref(lookups.facets.years, v.year, `${q}.year`, 'year'),
        ref(lookups.facets.sizes, v.size, `${q}.size`, 'size'),
        ref(lookups.facets.countries, v.country, `${q}.country`, 'country'),
        dec(num(v.alcohol_volume, `${q}.alcohol_volume`, { min: 0, max: 100 }), 2),
        num(v.grams, `${q}.grams`, { min: 0, integer: true, max: 1e7 }),
        str(v.option_group, `${q}.option_group`, 255),
        JSON.stringify(trans(v.description, `${q}.description`, lang, TRANSLATED_MAX_LENGTH.text)),
        JSON.stringify(trans(v.description_additional, `${q}.description_additional`, lang, TRANSLATED_MAX_LENGTH.text)),
        str(v.area, `${q}.area`, 255),
        dec(num(qr.min, `${q}.quantity_rule.min`, { min: 0, max: 1e6 }) ?? 1, 3),
        dec(num(qr.max, `${q}.quantity_rule.max`, { min: 0, max: 1e6 }), 3),
        dec(num(qr.increment, `${q}.quantity_rule.increment`, { min: 0.001, max: 1e6 }) ?? 1, 3),
        optionIds,
        bool(v.track_inventory, `${q}.track_inventory`, true),
        bool(v.allow_backorder, `${q}.allow_backorder`, false),
        bool(v.gift_card, `${q}.gift_card`, false),
      ];
      variants.push({ productKey: pkey, row: [...row, null, hash([pkey, ...row])], stock });
    });
  });

  // products
  const prod = await upsert(
    m,
    tenantId,
    {
      table: 'products',
      cols: [
        'key',
        'handle',
        'title',
        'body_html',
        'summary_html',
        'manufacturer_id',
        'category_ids',
        'flag_id',
        'tags',
        'published',
        'rating',
        'rating_count',
        'created_at',
        'archived_at',
        'import_hash',
      ],
      insertOnly: ['created_at'],
    },
    productRows,
  );
  const explicitDates = productRows
    .filter((r, bi) => prod.changed.has(r[0] as string) && obj(batch[bi], 'products').created_at != null)
    .map((r) => [r[0], r[12]]);
  if (explicitDates.length > 0) {
    await setProductCreatedAt(m, tenantId, explicitDates);
  }
  s.created.products = (s.created.products ?? 0) + prod.created;
  s.updated.products = (s.updated.products ?? 0) + prod.updated;
  for (const [k, id] of prod.ids) s.productIds[k] = id;
  const changedProducts = [...prod.changed].map((k) => prod.ids.get(k)!);
  changedProducts.forEach((id) => s.touched.add(id));
  if (changedProducts.length > 0) {
    await deleteImagesAndRatings(m, tenantId, changedProducts);
    const images: unknown[][] = [];
    const ratings: unknown[][] = [];
    for (const k of prod.changed) {
      const pid = prod.ids.get(k)!;
      const ch = children.get(k)!;
      ch.images.forEach((img, pos) => images.push([pid, pos + 1, img.src, img.alt, img.width, img.height]));
      ch.ratings.forEach((r) => ratings.push([pid, r, true]));
    }
    await insertMany(m, tenantId, 'product_images', ['product_id', 'position', 'src', 'alt', 'width', 'height'], images);
    await insertMany(m, tenantId, 'product_ratings', ['product_id', 'value', 'approved'], ratings);
  }

  // variants
  const vrows = variants.map((v) => [s.productIds[v.productKey], ...v.row]);
  const vcols = [
    'product_id',
    'key',
    'handle',
    'sku',
    'title',
    'position',
    'price',
    'compare_at_price',
    'gross',
    'net',
    'compare_at_gross',
    'tax_rate',
    'published',
    'active',
    'color_id',
    'region_id',
    'year_id',
    'size_id',
    'country_id',
    'alcohol_volume',
    'grams',
    'option_group',
    'description',
    'description_additional',
    'area',
    'quantity_min',
    'quantity_max',
    'quantity_increment',
    'option_ids',
    'track_inventory',
    'allow_backorder',
    'gift_card',
    'archived_at',
    'import_hash',
  ];
  const vars = await upsert(m, tenantId, { table: 'variants', cols: vcols }, vrows, 1);
  for (const [k, id] of vars.ids) s.variantIds[k] = id;
  let varsUpdated = vars.updated;
  for (const v of variants) if (vars.changed.has(v.row[0] as string)) s.touched.add(s.productIds[v.productKey]);

  // stock: a movement where the ledger differs from the imported on-hand
  const withStock = variants.filter((v) => v.stock && v.stock.length > 0);
  if (withStock.length > 0) {
    const vids = withStock.map((v) => vars.ids.get(v.row[0] as string)!);
    const rows = await stockByVariantAndLocation(m, tenantId, vids);
    const have = new Map(rows.map((r) => [`${r.variant_id}/${r.location_id}`, Number(r.on_hand)]));
    const moves: unknown[][] = [];
    for (const v of withStock) {
      const vid = vars.ids.get(v.row[0] as string)!;
      let moved = false;
      for (const [loc, qty] of v.stock!) {
        const delta = round4(qty - (have.get(`${vid}/${loc}`) ?? 0));
        if (delta !== 0) {
          moves.push([vid, loc, delta, s.stockReason ?? 'import']);
          moved = true;
        }
      }
      if (moved) {
        s.touched.add(s.productIds[v.productKey]);
        if (!vars.changed.has(v.row[0] as string)) varsUpdated += 1;
      }
    }
    await insertMany(m, tenantId, 'stock_movements', ['variant_id', 'location_id', 'delta', 'reason'], moves);
  }
  s.created.variants = (s.created.variants ?? 0) + vars.created;
  s.updated.variants = (s.updated.variants ?? 0) + varsUpdated;
}

/**
 * A variant's `currency` (optional, the currency of its `price` and `compare_at_price`): prices are stored in the shop's
 * default currency and derived for the others by their rate (CONTRACT 6), so any other currency is 422 naming the
 * member (`currency_mismatch`) rather than a price silently taken for one in the default currency.
 */
export function checkPriceCurrency(value: unknown, path: string, shopCurrency: string | null): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) throw bad(path, 'must be an ISO 4217 code of 3 letters');
  if (shopCurrency === null) throw AppError.unprocessable(`${path} names no currency of the shop (it has none yet)`, 'currency_mismatch');
  if (value.toUpperCase() !== shopCurrency)
    throw AppError.unprocessable(
      `${path} must be the shop's default currency (${shopCurrency}): prices are set in it, the other currencies are derived by their rate`,
      'currency_mismatch',
    );
}

/** The shop's default currency code (the currency prices are written in), null when it has none yet. */
export async function defaultCurrencyOf(m: EntityManager, tenantId: string): Promise<string | null> {
  const [first] = await currencyRecordsOf(m, tenantId);
  return first?.is_default ? first.code : null;
}

export type Lookups = Awaited<ReturnType<typeof loadLookups>>;

export interface ProductWriteState {
  lang: string;
  includeTax: boolean;
  /** The shop's default currency (ISO 4217; null when it has none yet): the currency of every price written. */
  currency: string | null;
  lookups: Lookups;
  seenProducts: Set<string>;
  seenVariants: Set<string>;
  productIds: Record<string, string>;
  variantIds: Record<string, string>;
  /** Products whose storefront rows must be rebuilt. */
  touched: Set<string>;
  created: KindCounts;
  updated: KindCounts;
  /** Reason of the stock movements written (default `import`). */
  stockReason?: string;
  /** Paths named by a 422 (default `products[i]` and `products[i].variants[j]`). */
  paths?: { product: (batchIndex: number) => string; variant: (productPath: string, j: number) => string };
}
