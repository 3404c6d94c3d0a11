/**
 * Conformance of the storefront and customer tiers with SPEC.md and CONTRACT.md, read as an external black-box
 * tester would: the catalogue of CONTRACT 6's example (plus a few edge rows), then every storefront and customer
 * resource checked for its exact key set (SPEC's field list plus the README's documented additions), member types
 * and nullability, and every listed status and error code.
 */
import { createCustomersApp, register, signIn, PASSWORD, PROFILE_KEYS, ADDRESS_KEYS } from './customers.helpers.js';
import type { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { API, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const keys = (x: object) => Object.keys(x).sort();
const sorted = (...k: string[]) => [...k].sort();

const IMAGE_KEYS = sorted('id', 'src', 'preview_src', 'alt', 'position', 'width', 'height');
const LIST_KEYS = sorted(
  'id',
  'handle',
  'title',
  'body_html',
  'image',
  'available',
  'currency',
  'price_min',
  'price_max',
  'variants_count',
  'manufacturer',
  'flag',
  'rating',
  'rating_count',
  'custom_fields',
  'variants',
);
const DETAIL_KEYS = sorted(
  'id',
  'handle',
  'title',
  'body_html',
  'summary_html',
  'image',
  'images',
  'available',
  'vendor',
  'rating',
  'rating_count',
  'currency',
  'price_min',
  'price_max',
  'manufacturer',
  'category_path',
  'flag',
  'custom_fields',
  'variants',
);
// README: lowest_price_30_days (EU Omnibus, issue 32) is the one member added to SPEC's variant
const VARIANT_KEYS = sorted(
  'id',
  'product_id',
  'handle',
  'title',
  'sku',
  'option_group',
  'price',
  'net_price',
  'compare_at_price',
  'lowest_price_30_days',
  'tax_rate',
  'available',
  'inventory_quantity',
  'description',
  'description_additional',
  'year',
  'size',
  'area',
  'country',
  'alcohol_volume',
  'quantity_rule',
  'custom_fields',
  'factsheet_url',
  'facets',
);
const COLLECTION_KEYS = sorted(
  'id',
  'handle',
  'title',
  'body_html',
  'image',
  'products_count',
  'sort_order',
  'meta_title',
  'meta_description',
  'custom_fields',
);
// README: discount_code_error is the one member added to SPEC's cart
const CART_KEYS = sorted(
  'currency',
  'show_net_prices',
  'item_count',
  'items',
  'items_subtotal_price',
  'total_discount',
  'total_price',
  'total_weight',
  'discount_code',
  'discount_code_error',
);
const CART_LINE_KEYS = sorted(
  'id',
  'product_id',
  'sku',
  'title',
  'url',
  'quantity',
  'price',
  'net_price',
  'gross_price',
  'discount_percent',
  'line_price',
  'image',
  'vendor',
  'grams',
  'year',
  'size',
  'color',
);
const CHECKOUT_KEYS = sorted(
  'id',
  'currency',
  'is_completed',
  'guest_checkout_enabled',
  'comments',
  'line_items',
  'totals',
  'shipping_options',
  'selected_shipping_method_id',
  'payment_types',
  'selected_payment_type_id',
  'shipping_address',
  'billing_address',
  'billing_same_as_shipping',
  'available_countries',
  'compliance',
);
const CHECKOUT_LINE_KEYS = sorted(
  'id',
  'article_id',
  'title',
  'sku',
  'quantity',
  'unit_price',
  'unit_price_with_tax',
  'line_total',
  'line_total_with_tax',
  'image_url',
);
const TOTALS_KEYS = sorted(
  'subtotal',
  'subtotal_before_discount',
  'tax_amount',
  'shipping_amount',
  'shipping_tax_rate',
  'shipping_method_name',
  'discount',
  'coupon_text',
  'total',
  'currency',
  'price_includes_tax',
  'tax_lines',
);
const CHECKOUT_ADDRESS_KEYS = sorted(
  'id',
  'first_name',
  'last_name',
  'company',
  'department',
  'vat_number',
  'street',
  'house_number',
  'po_box',
  'zip_code',
  'location',
  'email',
  'phone_number',
  'mobile_number',
  'country_code',
  'country_name',
);
const COMPLETE_KEYS = sorted('success', 'payment_url', 'order_id', 'order_number', 'hash');
// README: the receipt also carries tax_amount, tax_lines and payment_status
const RECEIPT_KEYS = sorted(
  'id',
  'number',
  'status',
  'date',
  'currency',
  'price_includes_tax',
  'line_items',
  'subtotal',
  'discount',
  'discount_code',
  'shipping_amount',
  'shipping_method_name',
  'total',
  'comments',
  'payment_type',
  'tracking_url',
  'shipping_address',
  'billing_address',
  'tax_amount',
  'tax_lines',
  'payment_status',
  // issue 17: payment and fulfillment state, cancellation, refund amounts
  'financial_status',
  'fulfillment_status',
  'cancelled_at',
  'cancel_reason',
  'refunded_amount',
  'refunds',
);
const ORDER_LINE_KEYS = sorted('id', 'variant_id', 'product_id', 'title', 'sku', 'description', 'quantity', 'unit_price', 'unit_price_with_tax', 'line_total');
const ORDER_SUMMARY_KEYS = sorted('id', 'number', 'status', 'date', 'total', 'line_items');

const isStr = (x: unknown) => typeof x === 'string';
const isStrOrNull = (x: unknown) => x === null || typeof x === 'string';
const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const isInt = (x: unknown) => Number.isInteger(x);

/** CONTRACT 6's example import, with a second product and a few rows a tester adds for edge cases. */
function contractImport() {
  return {
    settings: {
      default_language: 'en',
      languages: ['en', 'de'],
      default_currency: 'CHF',
      prices_include_tax: true,
      show_net_prices: false,
      require_email_confirmation: false,
      guest_checkout_enabled: true,
      terms: { required: true, terms_url: 'https://shop.example/terms', privacy_url: 'https://shop.example/privacy' },
      age_verification: { min_age: 18, min_age_by_country: { US: 21 }, applies_to_alcohol_volume_over: 0 },
    },
    currencies: [
      { key: 'CHF', code: 'CHF', name: 'Swiss franc', symbol: 'CHF', rate: 1, published: true },
      { key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true },
      { key: 'USD', code: 'USD', name: 'US dollar', symbol: '$', rate: 1.1, published: false },
    ],
    countries: [
      { key: 'CH', code: 'CH', name: { en: 'Switzerland', de: 'Schweiz' }, shipping: true },
      { key: 'US', code: 'US', name: 'United States', shipping: true },
    ],
    locations: [{ key: 'cellar', name: 'Main cellar' }],
    manufacturers: [{ key: 'm-1', name: 'Domaine Example', logo_url: null }],
    categories: [{ key: 'red', name: { en: 'Red wine', de: 'Rotwein' }, parent: null }],
    facets: {
      colors: [{ key: 'red', name: { en: 'Red' } }],
      regions: [{ key: 'bordeaux', name: 'Bordeaux' }],
      sizes: [{ key: '75cl', name: '75 cl' }],
      years: [{ key: '2019', name: '2019' }],
      countries: [{ key: 'FR', name: { en: 'France' } }],
    },
    custom_fields: [{ key: 'grape', label: { en: 'Grape' }, type: 'select', options: [{ key: 'merlot', name: 'Merlot', value: 'merlot' }] }],
    flags: [{ key: 'new', name: { en: 'New' }, color: '#c0392b' }],
    shipping_methods: [
      { key: 'post', name: { en: 'Swiss Post' }, price: 9.5, tax_rate: 8.1, countries: ['CH'], free_over: 150, delivery_days: 2 },
      { key: 'freight', name: 'Freight', price: 40, tax_rate: 0, countries: ['US'], free_over: null, delivery_days: null },
    ],
    payment_types: [
      { key: 'invoice', name: { en: 'Invoice' }, kind: 'invoice', image_url: null },
      { key: 'prepayment', name: 'Prepayment', kind: 'prepayment' },
      { key: 'card', name: 'Card', kind: 'redirect' },
    ],
    products: [
      {
        key: 'p-1',
        handle: 'domaine-example-merlot-2019',
        title: { en: 'Merlot 2019', de: 'Merlot 2019' },
        body_html: '<p>...</p>',
        summary_html: null,
        manufacturer: 'm-1',
        categories: ['red'],
        flag: 'new',
        tags: ['organic'],
        published: true,
        created_at: '2026-01-15T10:00:00Z',
        images: [{ src: 'https://cdn.example/p-1.jpg', alt: 'Bottle', width: 800, height: 1200 }],
        ratings: [5, 4, 4],
        variants: [
          {
            key: 'v-1',
            handle: 'merlot-2019-75cl',
            sku: 'DE-MER-19-75',
            title: { en: '75 cl' },
            price: 24.9,
            compare_at_price: 29.9,
            tax_rate: 8.1,
            published: true,
            active: true,
            color: 'red',
            region: 'bordeaux',
            year: '2019',
            size: '75cl',
            country: 'FR',
            alcohol_volume: 13.5,
            grams: 1300,
            option_group: null,
            description: null,
            description_additional: null,
            area: 'Saint-Émilion',
            quantity_rule: { min: 1, max: null, increment: 1 },
            custom_fields: { grape: ['merlot'] },
            track_inventory: true,
            allow_backorder: false,
            stock: { cellar: 120 },
          },
        ],
      },
      // a bare product: no manufacturer, image, flag, categories, facets or ratings
      {
        key: 'p-2',
        title: 'Plain table wine',
        published: true,
        created_at: '2026-01-10T10:00:00Z',
        variants: [{ key: 'v-2', sku: 'PLAIN', price: 9.9, tax_rate: 8.1, published: true, active: true, track_inventory: false }],
      },
      {
        key: 'p-hidden',
        title: 'Unpublished',
        published: false,
        variants: [{ key: 'v-hidden', sku: 'HID', price: 5, tax_rate: 8.1, published: true, active: true }],
      },
    ],
    collections: [
      {
        key: 'summer',
        title: 'Summer wines',
        collection_type: 'manual',
        published: true,
        products: ['p-1'],
        body_html: '<p>Summer</p>',
        meta_title: 'Summer',
        meta_description: 'Summer wines',
      },
      {
        key: 'cheap-reds',
        title: 'Reds under 20',
        collection_type: 'smart',
        published: true,
        rules_json: '{"all":[{"field":"category","eq":"red"},{"field":"price","lt":20}]}',
      },
      { key: 'draft', title: 'Draft', collection_type: 'manual', published: false, products: ['p-1'] },
    ],
  };
}

const address = {
  first_name: 'Anna',
  last_name: 'Muster',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip_code: '8001',
  location: 'Zürich',
  email: 'anna@example.ch',
  country_code: 'CH',
};

type Ids = Record<string, Record<string, any>>;

function expectImage(img: Record<string, unknown>) {
  expect(keys(img)).toEqual(IMAGE_KEYS);
  expect(isStrOrNull(img.src) && isStrOrNull(img.preview_src) && isStrOrNull(img.alt)).toBe(true);
  expect(isInt(img.position) && isInt(img.width) && isInt(img.height)).toBe(true);
}

function expectCustomField(cf: Record<string, unknown>) {
  expect(keys(cf)).toEqual(sorted('key', 'label', 'value', 'type'));
  for (const k of ['key', 'label', 'value', 'type']) expect(isStrOrNull(cf[k])).toBe(true);
}

function expectVariant(v: Record<string, unknown>) {
  expect(keys(v)).toEqual(VARIANT_KEYS);
  expect(v.id).toMatch(UUID);
  expect(v.product_id).toMatch(UUID);
  for (const k of ['handle', 'title', 'sku', 'option_group', 'description', 'description_additional', 'year', 'size', 'area', 'country', 'factsheet_url'])
    expect([k, isStrOrNull(v[k])]).toEqual([k, true]);
  for (const k of ['price', 'net_price', 'compare_at_price', 'tax_rate', 'inventory_quantity']) expect([k, isNum(v[k])]).toEqual([k, true]);
  expect(typeof v.available).toBe('boolean');
  // on offer (compare_at_price above price): a number; otherwise null
  expect((v.compare_at_price as number) > (v.price as number) ? isNum(v.lowest_price_30_days) : v.lowest_price_30_days === null).toBe(true);
  expect(v.alcohol_volume === null || isNum(v.alcohol_volume)).toBe(true);
  const rule = v.quantity_rule as Record<string, unknown>;
  expect(keys(rule)).toEqual(sorted('min', 'max', 'increment'));
  expect(isNum(rule.min) && isNum(rule.increment) && (rule.max === null || isNum(rule.max))).toBe(true);
  (v.custom_fields as Array<Record<string, unknown>>).forEach(expectCustomField);
  const facets = v.facets as Record<string, unknown>;
  expect(keys(facets)).toEqual(sorted('color', 'region', 'vintage', 'size', 'options'));
  for (const k of ['color', 'region', 'vintage', 'size']) {
    const ref = facets[k] as Record<string, unknown> | null;
    if (ref !== null) {
      expect(keys(ref)).toEqual(['id', 'name']);
      expect(ref.id).toMatch(UUID);
      expect(isStrOrNull(ref.name)).toBe(true);
    }
  }
  for (const o of facets.options as Array<Record<string, unknown>>) {
    expect(keys(o)).toEqual(sorted('field_key', 'field_label', 'id', 'name'));
    expect(isStr(o.field_key) && isStr(o.field_label) && isStr(o.name)).toBe(true);
    expect(o.id).toMatch(UUID);
  }
}

function expectListProduct(p: Record<string, unknown>) {
  expect(keys(p)).toEqual(LIST_KEYS);
  expect(p.id).toMatch(UUID);
  for (const k of ['handle', 'title', 'body_html', 'image', 'currency']) expect([k, isStrOrNull(p[k])]).toEqual([k, true]);
  expect(typeof p.available).toBe('boolean');
  for (const k of ['price_min', 'price_max', 'rating']) expect([k, isNum(p[k])]).toEqual([k, true]);
  expect(isInt(p.variants_count) && isInt(p.rating_count)).toBe(true);
  expect(keys(p.manufacturer as object)).toEqual(sorted('id', 'name', 'logo_url'));
  expect(keys(p.flag as object)).toEqual(sorted('name', 'color'));
  (p.custom_fields as Array<Record<string, unknown>>).forEach(expectCustomField);
  (p.variants as Array<Record<string, unknown>>).forEach(expectVariant);
}

function expectCheckoutAddress(a: Record<string, unknown>) {
  expect(keys(a)).toEqual(CHECKOUT_ADDRESS_KEYS);
  for (const k of CHECKOUT_ADDRESS_KEYS) expect([k, isStrOrNull(a[k])]).toEqual([k, true]);
}

function expectCheckout(c: Record<string, unknown>) {
  expect(keys(c)).toEqual(CHECKOUT_KEYS);
  expect(c.id).toMatch(UUID);
  expect(isStrOrNull(c.currency) && isStrOrNull(c.comments)).toBe(true);
  for (const k of ['is_completed', 'guest_checkout_enabled', 'billing_same_as_shipping']) expect([k, typeof c[k]]).toEqual([k, 'boolean']);
  for (const l of c.line_items as Array<Record<string, unknown>>) {
    expect(keys(l)).toEqual(CHECKOUT_LINE_KEYS);
    expect(l.id).toMatch(UUID);
    expect(l.article_id === null || UUID.test(String(l.article_id))).toBe(true);
    for (const k of ['quantity', 'unit_price', 'unit_price_with_tax', 'line_total', 'line_total_with_tax']) expect([k, isNum(l[k])]).toEqual([k, true]);
    expect(isStrOrNull(l.image_url) && isStrOrNull(l.title) && isStrOrNull(l.sku)).toBe(true);
  }
  const t = c.totals as Record<string, unknown>;
  expect(keys(t)).toEqual(TOTALS_KEYS);
  for (const k of ['subtotal', 'subtotal_before_discount', 'tax_amount', 'shipping_amount', 'shipping_tax_rate', 'discount', 'total'])
    expect([k, isNum(t[k])]).toEqual([k, true]);
  expect(typeof t.price_includes_tax).toBe('boolean');
  for (const tl of t.tax_lines as Array<Record<string, unknown>>) {
    expect(keys(tl)).toEqual(sorted('name', 'rate', 'amount'));
    expect(isStr(tl.name) && isNum(tl.rate) && isNum(tl.amount)).toBe(true);
  }
  // SPEC: shipping_options {id uuid, name string, price string, expected_delivery_date string}
  for (const o of c.shipping_options as Array<Record<string, unknown>>) {
    expect(keys(o)).toEqual(sorted('id', 'name', 'price', 'expected_delivery_date'));
    expect(o.id).toMatch(UUID);
    expect([isStr(o.name), isStr(o.price), isStr(o.expected_delivery_date)]).toEqual([true, true, true]);
  }
  expect(c.selected_shipping_method_id === null || UUID.test(String(c.selected_shipping_method_id))).toBe(true);
  // SPEC: payment_types {id uuid, name string, image_url string}
  for (const p of c.payment_types as Array<Record<string, unknown>>) {
    expect(keys(p)).toEqual(sorted('id', 'name', 'image_url'));
    expect(p.id).toMatch(UUID);
    expect([isStr(p.name), isStr(p.image_url)]).toEqual([true, true]);
  }
  expect(c.selected_payment_type_id === null || UUID.test(String(c.selected_payment_type_id))).toBe(true);
  expectCheckoutAddress(c.shipping_address as Record<string, unknown>);
  expectCheckoutAddress(c.billing_address as Record<string, unknown>);
  // SPEC: available_countries {code string, name string}
  for (const x of c.available_countries as Array<Record<string, unknown>>) {
    expect(keys(x)).toEqual(['code', 'name']);
    expect([isStr(x.code), isStr(x.name)]).toEqual([true, true]);
  }
  const comp = c.compliance as { terms: Record<string, unknown>; age_verification: Record<string, unknown> };
  expect(keys(comp)).toEqual(['age_verification', 'terms']);
  expect(keys(comp.terms)).toEqual(sorted('required', 'terms_url', 'privacy_url'));
  expect([typeof comp.terms.required, typeof comp.terms.terms_url, typeof comp.terms.privacy_url]).toEqual(['boolean', 'string', 'string']);
  expect(keys(comp.age_verification)).toEqual(sorted('required', 'min_age'));
  expect(typeof comp.age_verification.required).toBe('boolean');
  expect(isInt(comp.age_verification.min_age)).toBe(true);
}

function expectReceipt(o: Record<string, unknown>) {
  expect(keys(o)).toEqual(RECEIPT_KEYS);
  expect(o.id).toMatch(UUID);
  expect(isStrOrNull(o.number) && isStrOrNull(o.status)).toBe(true);
  expect(o.date).toMatch(ISO_DATE_TIME);
  expect(typeof o.price_includes_tax).toBe('boolean');
  for (const k of ['subtotal', 'discount', 'shipping_amount', 'total']) expect([k, isNum(o[k])]).toEqual([k, true]);
  for (const k of ['discount_code', 'shipping_method_name', 'comments', 'payment_type', 'tracking_url']) expect([k, isStrOrNull(o[k])]).toEqual([k, true]);
  expect(['pending', 'paid', 'partially_refunded', 'refunded', 'voided']).toContain(o.financial_status);
  expect(['unfulfilled', 'partial', 'fulfilled']).toContain(o.fulfillment_status);
  expect(isStrOrNull(o.cancelled_at) && isStrOrNull(o.cancel_reason) && isNum(o.refunded_amount)).toBe(true);
  for (const r of o.refunds as Array<Record<string, unknown>>) expect(keys(r)).toEqual(['amount', 'created_at']);
  for (const l of o.line_items as Array<Record<string, unknown>>) {
    expect(keys(l)).toEqual(ORDER_LINE_KEYS);
    for (const k of ['quantity', 'unit_price', 'unit_price_with_tax', 'line_total']) expect([k, isNum(l[k])]).toEqual([k, true]);
  }
  expectCheckoutAddress(o.shipping_address as Record<string, unknown>);
  expectCheckoutAddress(o.billing_address as Record<string, unknown>);
}

/** The error envelope: `errors` (string) and, only where promised, `code`. */
function expectError(body: Record<string, unknown>, code?: string) {
  expect(typeof body.errors).toBe('string');
  if (code) expect(body.code).toBe(code);
  for (const k of Object.keys(body)) expect(['errors', 'code']).toContain(k);
}

describe('conformance: storefront and customer tiers (SPEC, CONTRACT)', () => {
  let t: TestApp;
  let mail: MemoryMailTransport;
  let shop: TestShop;
  let ids: Ids;
  let sf: ShopClient;

  const visitor = () => t.client(shop.storefront_token);

  beforeAll(async () => {
    ({ t, mail } = await createCustomersApp());
    shop = await t.createShop({ name: 'Conformance' });
    const res = await shop.admin.post('/admin/catalogue/import', contractImport());
    if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(res.body)}`);
    ids = res.body.import.ids;
    sf = shop.storefront;
  });
  afterAll(() => t?.close());

  // ------------------------------------------------------------------ catalogue

  describe('products', () => {
    it('GET /products: {products, price_range}, list projection; facets omitted without include', async () => {
      const res = await sf.get('/products').expect(200);
      expect(keys(res.body)).toEqual(['price_range', 'products']);
      expect(keys(res.body.price_range)).toEqual(['currency', 'max', 'min']);
      expect(res.body.products).toHaveLength(2);
      res.body.products.forEach(expectListProduct);
      const p1 = res.body.products.find((p: { id: string }) => p.id === ids.products['p-1']);
      expect(p1.image).toBe('https://cdn.example/p-1.jpg');
      expect(p1.manufacturer).toEqual({ id: ids.manufacturers['m-1'], name: 'Domaine Example', logo_url: null });
      expect(p1.flag).toEqual({ name: 'New', color: '#c0392b' });
      expect(p1.rating).toBeCloseTo(4.33, 2);
      expect(p1.rating_count).toBe(3);
      expect(p1.custom_fields).toEqual([{ key: 'grape', label: 'Grape', value: 'Merlot', type: 'select' }]);
      // the list view leaves tax_rate, alcohol_volume and option_group at defaults
      expect(p1.variants[0]).toMatchObject({ tax_rate: 0, alcohol_volume: null, option_group: null });
    });

    it('include=facets adds facets; /products/facets is {facets, price_range}, [] when nothing matches', async () => {
      const res = await sf.get('/products?include=facets').expect(200);
      expect(keys(res.body)).toEqual(['facets', 'price_range', 'products']);
      const order = ['manufacturers', 'categories', 'colors', 'sizes', 'years', 'countries', 'regions', 'custom_fields'];
      const got = res.body.facets.map((f: { key: string }) => f.key);
      expect(got).toEqual(order.filter((k) => got.includes(k)));
      for (const f of res.body.facets) {
        expect(keys(f)).toEqual(['key', 'values']);
        expect(f.values.length).toBeGreaterThan(0);
        for (const v of f.values) {
          expect(keys(v)).toEqual(['count', 'id', 'name', 'value']);
          expect(isStr(v.id) && isStrOrNull(v.name) && isStrOrNull(v.value) && isInt(v.count) && v.count > 0).toBe(true);
          if (f.key !== 'custom_fields') expect(v.value).toBeNull();
        }
      }
      const cf = res.body.facets.find((f: { key: string }) => f.key === 'custom_fields');
      expect(cf.values[0]).toMatchObject({ id: ids.custom_field_options.merlot, name: 'Merlot', value: 'merlot', count: 1 });
      const facets = await sf.get('/products/facets').expect(200);
      expect(keys(facets.body)).toEqual(['facets', 'price_range']);
      const none = await sf.get('/products/facets?q=zzzzqqqq').expect(200);
      expect(none.body.facets).toEqual([]);
      expect(keys(none.body.price_range)).toEqual(['currency', 'max', 'min']);
    });

    it('price_range is gross in the active currency', async () => {
      const res = await sf.get('/products?currency=EUR').expect(200);
      expect(res.body.price_range).toEqual({ min: 10.49, max: 26.39, currency: 'EUR' });
      expect(res.body.products.every((p: { currency: string }) => p.currency === 'EUR')).toBe(true);
    });

    it('paging: Link rel="next" when more, none on the last page; stale page_info 422; unknown order 422', async () => {
      const first = await sf.get('/products?limit=1&order=title%20asc').expect(200);
      expect(first.body.products).toHaveLength(1);
      const link = first.headers.link as string;
      expect(link).toMatch(/^<[^>]+>; rel="next"$/);
      const next = new URL(link.slice(1, link.indexOf('>')));
      expect(next.searchParams.get('limit')).toBe('1');
      const second = await t
        .http()
        .get(next.pathname + next.search)
        .set('Authorization', `Bearer ${shop.storefront_token}`)
        .expect(200);
      expect(second.body.products).toHaveLength(1);
      expect(second.body.products[0].id).not.toBe(first.body.products[0].id);
      expect(second.headers.link).toBeUndefined();
      const stale = await sf.get(`/products?limit=1&order=title%20desc&page_info=${encodeURIComponent(next.searchParams.get('page_info')!)}`).expect(422);
      expectError(stale.body);
      expectError((await sf.get('/products?order=bogus').expect(422)).body);
    });

    it('GET /products/{id}: detail shape; 404 for unknown and unpublished; 422 for a non-UUID id', async () => {
      const res = await sf.get(`/products/${ids.products['p-1']}`).expect(200);
      expect(keys(res.body)).toEqual(['product']);
      const p = res.body.product;
      expect(keys(p)).toEqual(DETAIL_KEYS);
      expectImage(p.image);
      p.images.forEach(expectImage);
      expect(p.vendor).toBe('Domaine Example');
      expect(p.category_path).toEqual([{ id: ids.categories.red, name: 'Red wine' }]);
      p.variants.forEach(expectVariant);
      const v = p.variants[0];
      expect(v).toMatchObject({
        id: ids.variants['v-1'],
        price: 24.9,
        compare_at_price: 29.9,
        tax_rate: 8.1,
        alcohol_volume: 13.5,
        area: 'Saint-Émilion',
        year: '2019',
        size: '75 cl',
        country: 'France',
        quantity_rule: { min: 1, max: null, increment: 1 },
        factsheet_url: `/storefront/factsheets/${ids.variants['v-1']}.pdf`,
        inventory_quantity: 120,
        available: true,
      });
      expect(v.facets.color).toEqual({ id: ids.facets.colors.red, name: 'Red' });
      expect(v.facets.vintage).toEqual({ id: ids.facets.years['2019'], name: '2019' });
      expect(v.facets.options).toEqual([{ field_key: 'grape', field_label: 'Grape', id: ids.custom_field_options.merlot, name: 'Merlot' }]);
      expectError((await sf.get(`/products/${ids.products['p-hidden']}`).expect(404)).body);
      expectError((await sf.get('/products/00000000-0000-4000-8000-000000000000').expect(404)).body);
    });

    it('the bare product: category_path empty, no-image defaults', async () => {
      const p = (await sf.get(`/products/${ids.products['p-2']}`).expect(200)).body.product;
      expect(p.category_path).toEqual([]);
      expect(p.images).toEqual([]);
      expectImage(p.image);
      // SPEC: Image.id is a uuid and vendor a string, also without images or manufacturer
      expect(p.image).toEqual({ id: ids.products['p-2'], src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 });
      expect(p.vendor).toBe('');
      p.variants.forEach(expectVariant);
    });

    it('GET /products/{id}/variants: {currency, variants}; 404', async () => {
      const res = await sf.get(`/products/${ids.products['p-1']}/variants?currency=EUR`).expect(200);
      expect(keys(res.body)).toEqual(['currency', 'variants']);
      expect(res.body.currency).toBe('EUR');
      res.body.variants.forEach(expectVariant);
      expect(res.body.variants[0].price).toBe(26.39);
      await sf.get(`/products/${ids.products['p-hidden']}/variants`).expect(404);
    });

    it('the factsheet URL serves a PDF', async () => {
      const res = await t.http().get(`/storefront/factsheets/${ids.variants['v-1']}.pdf`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    });
  });

  describe('collections', () => {
    it('GET /collections: published only; list view leaves body_html and meta null, custom_fields []', async () => {
      const res = await sf.get('/collections').expect(200);
      expect(keys(res.body)).toEqual(['collections']);
      const list = res.body.collections;
      expect(list.map((c: { id: string }) => c.id).sort()).toEqual([ids.collections.summer, ids.collections['cheap-reds']].sort());
      for (const c of list) {
        expect(keys(c)).toEqual(COLLECTION_KEYS);
        expectImage(c.image);
        expect(isInt(c.products_count)).toBe(true);
        expect(c.custom_fields).toEqual([]);
        expect(c.body_html).toBeNull();
      }
    });

    it('GET /collections/{id}: the single read fills body_html and meta; unpublished 404', async () => {
      const c = (await sf.get(`/collections/${ids.collections.summer}`).expect(200)).body.collection;
      expect(keys(c)).toEqual(COLLECTION_KEYS);
      expect(c).toMatchObject({ body_html: '<p>Summer</p>', meta_title: 'Summer', meta_description: 'Summer wines', products_count: 1, custom_fields: [] });
      expectError((await sf.get(`/collections/${ids.collections.draft}`).expect(404)).body);
    });

    it('collection products and facets', async () => {
      const res = await sf.get(`/collections/${ids.collections['cheap-reds']}/products`).expect(200);
      expect(keys(res.body)).toEqual(['price_range', 'products']);
      expect(res.body.products).toEqual([]);
      const summer = await sf.get(`/collections/${ids.collections.summer}/products?include=facets`).expect(200);
      expect(keys(summer.body)).toEqual(['facets', 'price_range', 'products']);
      summer.body.products.forEach(expectListProduct);
      const facets = await sf.get(`/collections/${ids.collections.summer}/facets`).expect(200);
      expect(keys(facets.body)).toEqual(['facets', 'price_range']);
      await sf.get(`/collections/${ids.collections.draft}/products`).expect(404);
      await sf.get(`/collections/${ids.collections.draft}/facets`).expect(404);
    });

    it('the collection_id filter of GET /products: a published collection scopes; an unknown or unpublished one matches nothing (200, not 404)', async () => {
      const scoped = await sf.get(`/products?collection_id=${ids.collections.summer}`).expect(200);
      expect(scoped.body.products.map((p: { id: string }) => p.id)).toEqual(
        (await sf.get(`/collections/${ids.collections.summer}/products`).expect(200)).body.products.map((p: { id: string }) => p.id),
      );
      for (const id of [ids.collections.draft, '00000000-0000-4000-8000-000000000000']) {
        const list = await sf.get(`/products?collection_id=${id}&include=facets`).expect(200);
        expect(list.body.products).toEqual([]);
        expect(list.body.facets).toEqual([]);
        const facets = await sf.get(`/products/facets?collection_id=${id}`).expect(200);
        expect(facets.body.facets).toEqual([]);
      }
      expectError((await sf.get('/products?collection_id=not-a-uuid').expect(422)).body);
    });
  });

  it('GET /currencies: {id, code, name, symbol, is_default}, published only', async () => {
    const res = await sf.get('/currencies').expect(200);
    expect(keys(res.body)).toEqual(['currencies']);
    expect(res.body.currencies.map((c: { code: string }) => c.code).sort()).toEqual(['CHF', 'EUR']);
    for (const c of res.body.currencies) {
      expect(keys(c)).toEqual(sorted('id', 'code', 'name', 'symbol', 'is_default'));
      expect(typeof c.is_default).toBe('boolean');
    }
    expect(res.body.currencies.find((c: { code: string }) => c.code === 'CHF').is_default).toBe(true);
  });

  // ------------------------------------------------------------------ identification and cookie

  describe('storefront identification and the visitor cookie (CONTRACT 3)', () => {
    it('sets visitor_id (HttpOnly, SameSite=Lax, Path=/, one year) once, on the first response without one', async () => {
      const v = visitor();
      const first = await v.get('/cart').expect(200);
      const cookie = (first.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('visitor_id='))!;
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
      const maxAge = Number(/Max-Age=(\d+)/i.exec(cookie)?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(365 * 24 * 3600 - 60);
      const again = await v.get('/cart').expect(200);
      expect(again.headers['set-cookie']).toBeUndefined();
    });

    it('without a token: the shop of the Host domain; an unknown host among several shops is 401', async () => {
      const other = await t.createShop({ name: 'Hosted', domain: 'wine.example' });
      await other.admin
        .post('/admin/catalogue/import', {
          products: [{ key: 'x', title: 'Hosted wine', published: true, variants: [{ key: 'xv', price: 3, tax_rate: 0, published: true, active: true }] }],
        })
        .expect(200);
      const res = await t.http().get(`${API}/products`).set('Host', 'wine.example').expect(200);
      expect(res.body.products.map((p: { title: string }) => p.title)).toEqual(['Hosted wine']);
      expectError((await t.http().get(`${API}/products`).set('Host', 'nowhere.example').expect(401)).body);
      expectError((await t.http().get(`${API}/products`).set('Authorization', 'Bearer vnstss_nonsense').expect(401)).body);
    });
  });

  // ------------------------------------------------------------------ cart

  describe('cart', () => {
    it('an empty cart for a new visitor, with every member', async () => {
      const res = await visitor().get('/cart').expect(200);
      expect(keys(res.body)).toEqual(['cart']);
      expect(keys(res.body.cart)).toEqual(CART_KEYS);
      expect(res.body.cart).toMatchObject({
        currency: 'CHF',
        show_net_prices: false,
        item_count: 0,
        items: [],
        items_subtotal_price: 0,
        total_discount: 0,
        total_price: 0,
        total_weight: 0,
        discount_code: null,
      });
    });

    it('lines: shape and types; increment, absolute quantity, 0 removes, idempotent deletes', async () => {
      const v = visitor();
      let cart = (await v.post('/cart/items', { article_id: ids.variants['v-1'] }).expect(200)).body.cart;
      cart = (await v.post('/cart/items', { article_id: ids.variants['v-1'], quantity: 2 }).expect(200)).body.cart;
      expect(keys(cart)).toEqual(CART_KEYS);
      expect(cart.items).toHaveLength(1);
      const l = cart.items[0];
      expect(keys(l)).toEqual(CART_LINE_KEYS);
      expectImage(l.image);
      expect(l).toMatchObject({
        id: ids.variants['v-1'],
        product_id: ids.products['p-1'],
        sku: 'DE-MER-19-75',
        title: 'Merlot 2019',
        quantity: 3,
        price: 24.9,
        gross_price: 24.9,
        discount_percent: 0,
        line_price: 74.7,
        vendor: 'Domaine Example',
        grams: 1300,
        year: '2019',
        size: '75 cl',
        color: 'Red',
      });
      expect(isStr(l.url) && isNum(l.net_price)).toBe(true);
      expect(cart).toMatchObject({ item_count: 3, items_subtotal_price: 74.7, total_price: 74.7, total_weight: 3900 });
      cart = (await v.put(`/cart/items/${ids.variants['v-1']}`, { quantity: 1 }).expect(200)).body.cart;
      expect(cart.items[0].quantity).toBe(1);
      cart = (await v.put(`/cart/items/${ids.variants['v-1']}`, { quantity: 0 }).expect(200)).body.cart;
      expect(cart.items).toEqual([]);
      await v.delete(`/cart/items/${ids.variants['v-1']}`).expect(200);
      await v.delete('/cart').expect(200);
      expect((await v.delete('/cart').expect(200)).body.cart.items).toEqual([]);
      expectError((await v.post('/cart/items', {}).expect(422)).body);
      expectError((await v.post('/cart/items', { article_id: ids.variants['v-hidden'] }).expect(422)).body);
    });

    it('currency: by code (any case) or id; 422 for an unpublished or unknown one, or neither member', async () => {
      const v = visitor();
      await v.post('/cart/items', { article_id: ids.variants['v-1'] }).expect(200);
      const eur = (await v.put('/cart/currency', { code: 'eur' }).expect(200)).body.cart;
      expect(eur).toMatchObject({ currency: 'EUR', items_subtotal_price: 26.39 });
      const chf = (await v.put('/cart/currency', { currency_id: ids.currencies.CHF, code: 'EUR' }).expect(200)).body.cart;
      expect(chf.currency).toBe('CHF');
      expectError((await v.put('/cart/currency', { code: 'USD' }).expect(422)).body);
      expectError((await v.put('/cart/currency', { currency_id: ids.currencies.USD }).expect(422)).body);
      expectError((await v.put('/cart/currency', {}).expect(422)).body);
    });

    it('coupons: applied, cleared idempotently; refusals 422 with a code', async () => {
      await shop.admin.post('/admin/discount_codes', { code: 'TEN', type: 'percent', value: 10, is_active: true, is_infinite: true }).expect(201);
      const v = visitor();
      await v.post('/cart/items', { article_id: ids.variants['v-1'] }).expect(200);
      const res = (await v.post('/cart/discount_code', { code: 'TEN' }).expect(200)).body.cart;
      expect(res).toMatchObject({ discount_code: 'TEN', total_discount: 2.49, total_price: 22.41 });
      expectError((await v.post('/cart/discount_code', { code: 'ten' }).expect(422)).body, 'discount_code_not_found');
      expectError((await v.post('/cart/discount_code', {}).expect(422)).body);
      expect((await v.delete('/cart/discount_code').expect(200)).body.cart.discount_code).toBeNull();
      await v.delete('/cart/discount_code').expect(200);
    });

    it('CONTRACT 5: concurrent POST /cart/items never lose an increment', async () => {
      const v = visitor();
      await v.get('/cart').expect(200);
      await Promise.all(Array.from({ length: 12 }, () => v.post('/cart/items', { article_id: ids.variants['v-2'] }).expect(200)));
      const line = (await v.get('/cart').expect(200)).body.cart.items[0];
      expect(line.quantity).toBe(12);
      // SPEC Image.id is a uuid: a product without images gives the blank image with the product's id
      expect(line.image).toEqual({ id: ids.products['p-2'], src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 });
    });
  });

  // ------------------------------------------------------------------ wishlist

  describe('wishlist', () => {
    it('shape, newest first, list projection, limit/offset, item_count the full total; 422 for unpublished or a variant', async () => {
      const v = visitor();
      const empty = (await v.get('/wishlist').expect(200)).body;
      expect(keys(empty)).toEqual(['wishlist']);
      expect(empty.wishlist).toEqual({ item_count: 0, items: [] });
      await v.post('/wishlist/items', { product_id: ids.products['p-1'] }).expect(200);
      const w = (await v.post('/wishlist/items', { product_id: ids.products['p-2'] }).expect(200)).body.wishlist;
      expect(keys(w)).toEqual(['item_count', 'items']);
      expect(w.item_count).toBe(2);
      expect(w.items.map((i: { product_id: string }) => i.product_id)).toEqual([ids.products['p-2'], ids.products['p-1']]);
      for (const i of w.items) {
        expect(keys(i)).toEqual(['added_at', 'product', 'product_id']);
        expect(i.added_at).toMatch(ISO_DATE_TIME);
        expectListProduct(i.product);
      }
      await v.post('/wishlist/items', { product_id: ids.products['p-1'] }).expect(200);
      const paged = (await v.get('/wishlist?limit=1&offset=1').expect(200)).body.wishlist;
      expect(paged.item_count).toBe(2);
      expect(paged.items.map((i: { product_id: string }) => i.product_id)).toEqual([ids.products['p-1']]);
      expect((await v.get('/wishlist?limit=0').expect(200)).body.wishlist.items).toHaveLength(1);
      expectError((await v.post('/wishlist/items', { product_id: ids.products['p-hidden'] }).expect(422)).body);
      expectError((await v.post('/wishlist/items', { product_id: ids.variants['v-1'] }).expect(422)).body);
      await v.delete(`/wishlist/items/${ids.products['p-2']}`).expect(200);
      await v.delete(`/wishlist/items/${ids.products['p-2']}`).expect(200);
      expect((await v.delete('/wishlist').expect(200)).body.wishlist).toEqual({ item_count: 0, items: [] });
      await v.delete('/wishlist').expect(200);
    });
  });

  // ------------------------------------------------------------------ checkout

  describe('checkout', () => {
    async function openCheckout(client: ShopClient, quantity = 1) {
      await client.post('/cart/items', { article_id: ids.variants['v-1'], quantity }).expect(200);
      return (await client.post('/checkouts').expect(200)).body.checkout;
    }

    it('POST /checkouts: 422 on an empty cart; 200 {checkout} with every member and type', async () => {
      const v = visitor();
      expectError((await v.post('/checkouts').expect(422)).body);
      const c = await openCheckout(v, 2);
      expectCheckout(c);
      expect(c).toMatchObject({ currency: 'CHF', is_completed: false, guest_checkout_enabled: true, comments: null, billing_same_as_shipping: true });
      expect(c.line_items[0]).toMatchObject({
        article_id: ids.variants['v-1'],
        title: 'Merlot 2019',
        sku: 'DE-MER-19-75',
        quantity: 2,
        unit_price_with_tax: 24.9,
        line_total_with_tax: 49.8,
        image_url: 'https://cdn.example/p-1.jpg',
      });
      expect(c.totals).toMatchObject({
        subtotal_before_discount: 49.8,
        subtotal: 49.8,
        discount: 0,
        currency: 'CHF',
        price_includes_tax: true,
        coupon_text: null,
      });
      expect(c.payment_types.map((p: { name: string }) => p.name).sort()).toEqual(['Card', 'Invoice', 'Prepayment']);
      expect(c.available_countries).toEqual([
        { code: 'CH', name: 'Switzerland' },
        { code: 'US', name: 'United States' },
      ]);
      expect(c.compliance).toEqual({
        terms: { required: true, terms_url: 'https://shop.example/terms', privacy_url: 'https://shop.example/privacy' },
        age_verification: { required: true, min_age: 18 },
      });
      // every shipping option has a price string and a delivery date string
      const freight = c.shipping_options.find((o: { name: string }) => o.name === 'Freight');
      expect(freight.price).toBe('40.00');
      const post = c.shipping_options.find((o: { name: string }) => o.name === 'Swiss Post');
      expect(post.price).toBe('9.50');
      expect(post.expected_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}/);
      const got = (await v.get(`/checkouts/${c.id}`).expect(200)).body;
      expect(keys(got)).toEqual(['checkout']);
      expectCheckout(got.checkout);
    });

    it('GET/PUT unknown token 404; PUT recalculates; 422 on a rejected member', async () => {
      const v = visitor();
      expectError((await v.get('/checkouts/00000000-0000-4000-8000-000000000000').expect(404)).body);
      expectError((await v.put('/checkouts/00000000-0000-4000-8000-000000000000', { comments: 'x' }).expect(404)).body);
      const c = await openCheckout(v);
      const put = (
        await v
          .put(`/checkouts/${c.id}`, {
            shipping_address: address,
            shipping_method_id: ids.shipping_methods.post,
            payment_type_id: ids.payment_types.invoice,
            comments: 'Ring twice',
          })
          .expect(200)
      ).body.checkout;
      expectCheckout(put);
      expect(put).toMatchObject({
        selected_shipping_method_id: ids.shipping_methods.post,
        selected_payment_type_id: ids.payment_types.invoice,
        comments: 'Ring twice',
      });
      expect(put.shipping_address).toMatchObject({ ...address, id: null, country_name: 'Switzerland' });
      expect(put.totals).toMatchObject({ shipping_amount: 9.5, shipping_method_name: 'Swiss Post', total: 34.4 });
      expectError((await v.put(`/checkouts/${c.id}`, { shipping_method_id: 'nope' }).expect(422)).body);
      expectError((await v.put(`/checkouts/${c.id}`, { billing_same_as_shipping: 'yes' }).expect(422)).body);
    });

    it('complete: consent codes 422; result shape; completed GET 200 is_completed; 409 on PUT and complete; guest receipt', async () => {
      const v = visitor();
      const c = await openCheckout(v);
      await v.put(`/checkouts/${c.id}`, { shipping_address: address, shipping_method_id: ids.shipping_methods.post }).expect(200);
      const body = { payment_type_id: ids.payment_types.invoice };
      expectError((await v.post(`/checkouts/${c.id}/complete`, { ...body, age_confirmed: true }).expect(422)).body, 'terms_acceptance_required');
      expectError((await v.post(`/checkouts/${c.id}/complete`, { ...body, accepted_terms: true }).expect(422)).body, 'age_verification_required');
      expectError(
        (await v.post('/checkouts/00000000-0000-4000-8000-000000000000/complete', { ...body, accepted_terms: true, age_confirmed: true }).expect(404)).body,
      );
      const done = (await v.post(`/checkouts/${c.id}/complete`, { ...body, accepted_terms: true, age_confirmed: true }).expect(200)).body;
      expect(keys(done)).toEqual(['checkout']);
      expect(keys(done.checkout)).toEqual(COMPLETE_KEYS);
      expect(done.checkout).toMatchObject({ success: true, order_id: expect.stringMatching(UUID) });
      expect(isStr(done.checkout.order_number) && isStr(done.checkout.hash)).toBe(true);
      expect(done.checkout.payment_url === null || isStr(done.checkout.payment_url)).toBe(true);
      const after = (await v.get(`/checkouts/${c.id}`).expect(200)).body.checkout;
      expectCheckout(after);
      expect(after.is_completed).toBe(true);
      expectError((await v.put(`/checkouts/${c.id}`, { comments: 'late' }).expect(409)).body);
      expectError((await v.post(`/checkouts/${c.id}/complete`, { ...body, accepted_terms: true, age_confirmed: true }).expect(409)).body);
      // the cart was emptied by the order
      expect((await v.get('/cart').expect(200)).body.cart.items).toEqual([]);
      const receipt = await visitor().get(`/orders/${done.checkout.order_id}?hash=${done.checkout.hash}`).expect(200);
      expect(keys(receipt.body)).toEqual(['order']);
      expectReceipt(receipt.body.order);
      expect(receipt.body.order).toMatchObject({
        id: done.checkout.order_id,
        number: done.checkout.order_number,
        status: 'Open',
        currency: 'CHF',
        payment_type: 'Invoice',
        tracking_url: null,
        discount_code: null,
        shipping_method_name: 'Swiss Post',
        total: 34.4,
      });
      expectError((await visitor().get(`/orders/${done.checkout.order_id}?hash=wrong`).expect(404)).body);
      expectError((await visitor().get(`/orders/${done.checkout.order_id}`).expect(404)).body);
    });

    it('a shop without terms URLs, payment images or delivery times still answers strings where SPEC says string', async () => {
      const bare = await t.createShop({ name: 'Bare' });
      const imp = await bare.admin
        .post('/admin/catalogue/import', {
          countries: [{ key: 'CH', code: 'CH', name: 'Switzerland', shipping: true }],
          shipping_methods: [{ key: 'pickup', name: 'Pick-up', price: 0, tax_rate: 0, countries: [] }],
          payment_types: [{ key: 'cash', name: 'Cash', kind: 'invoice' }],
          products: [{ key: 'p', title: 'Water', published: true, variants: [{ key: 'v', price: 1, tax_rate: 0, published: true, active: true }] }],
        })
        .expect(200);
      const v = t.client(bare.storefront_token);
      await v.post('/cart/items', { article_id: imp.body.import.ids.variants.v }).expect(200);
      const c = (await v.post('/checkouts').expect(200)).body.checkout;
      expectCheckout(c);
      expect(c.compliance.terms).toEqual({ required: false, terms_url: '', privacy_url: '' });
      expect(c.shipping_options).toEqual([{ id: imp.body.import.ids.shipping_methods.pickup, name: 'Pick-up', price: '0.00', expected_delivery_date: '' }]);
      expect(c.payment_types).toEqual([{ id: imp.body.import.ids.payment_types.cash, name: 'Cash', image_url: '' }]);
    });

    it('a redirect method: return_url required, payment_url set', async () => {
      const v = visitor();
      const c = await openCheckout(v);
      await v.put(`/checkouts/${c.id}`, { shipping_address: address, shipping_method_id: ids.shipping_methods.post }).expect(200);
      const body = { payment_type_id: ids.payment_types.card, accepted_terms: true, age_confirmed: true };
      expectError((await v.post(`/checkouts/${c.id}/complete`, body).expect(422)).body);
      const done = (await v.post(`/checkouts/${c.id}/complete`, { ...body, return_url: 'https://shop.example/return' }).expect(200)).body.checkout;
      expect(keys(done)).toEqual(COMPLETE_KEYS);
      expect(isStr(done.payment_url)).toBe(true);
    });
  });

  // ------------------------------------------------------------------ shopper accounts and customer tier

  describe('registration, sign-in and the customer tier', () => {
    it('register 201 {customer: profile}; duplicate and short password 422; sign-in 200; wrong password 401 invalid_credentials', async () => {
      const v = visitor();
      const reg = await v.post('/customers', { email: 'ada@example.com', password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' }).expect(201);
      expect(keys(reg.body)).toEqual(['customer']);
      expect(keys(reg.body.customer)).toEqual(PROFILE_KEYS);
      expect(reg.body.customer).toMatchObject({ email: 'ada@example.com', is_active: true, is_email_confirmed: false, type: 'Customer' });
      expectError((await v.post('/customers', { email: 'ADA@example.com', password: PASSWORD }).expect(422)).body);
      expectError((await v.post('/customers', { email: 'bob@example.com', password: 'short' }).expect(422)).body);
      const token = await v.post('/customer/auth/token', { email: 'ada@example.com', password: PASSWORD }).expect(200);
      expect(keys(token.body)).toEqual(['customer_access_token']);
      expect(keys(token.body.customer_access_token)).toEqual(['access_token', 'expires_at']);
      expect(token.body.customer_access_token.access_token).toMatch(/^vnscat_/);
      expect(token.body.customer_access_token.expires_at).toMatch(ISO_DATE_TIME);
      expectError((await v.post('/customer/auth/token', { email: 'ada@example.com', password: 'wrong password' }).expect(401)).body, 'invalid_credentials');
      expectError((await v.post('/customer/auth/token', { email: 'nobody@example.com', password: PASSWORD }).expect(401)).body, 'invalid_credentials');
    });

    it('recover 202; reset and confirm with a bad token 422; reset with the mailed code works', async () => {
      const v = visitor();
      await register(v, 'grace@example.com');
      await v.post('/customers/recover', { email: 'nobody@example.com' }).expect(202);
      await v.post('/customers/recover', { email: 'grace@example.com' }).expect(202);
      expectError((await v.post('/customers/reset_password', { token: 'nope', password: 'another password' }).expect(422)).body);
      expectError((await v.post('/customers/confirm_email', { token: 'nope' }).expect(422)).body);
      await new Promise((r) => setTimeout(r, 50));
      const code = (mail.last('reset_password', 'grace@example.com')?.data as { token?: string } | undefined)?.token;
      expect(code).toBeDefined();
      const reset = await v.post('/customers/reset_password', { token: code, password: 'another password' });
      expect(reset.status).toBeLessThan(300);
      await signIn(t, v, 'grace@example.com', 'another password');
    });

    it('GET /customers/me; 401 without or with a storefront token', async () => {
      const v = visitor();
      await register(v, 'me@example.com', PASSWORD, { first_name: 'Me' });
      const { me } = await signIn(t, v, 'me@example.com');
      const res = await me.get('/customers/me').expect(200);
      expect(keys(res.body)).toEqual(['customer']);
      expect(keys(res.body.customer)).toEqual(PROFILE_KEYS);
      expect(keys(res.body.customer.default_address)).toEqual(ADDRESS_KEYS);
      // SPEC: default_address is not nullable: a shopper without a billing address gets the blank one (id = shopper id)
      const bare = await register(v, 'bare@example.com');
      const bareMe = (await signIn(t, v, 'bare@example.com')).me;
      const profile = (await bareMe.get('/customers/me').expect(200)).body.customer;
      expect(keys(profile.default_address)).toEqual(ADDRESS_KEYS);
      expect(profile.default_address).toEqual({ ...Object.fromEntries(ADDRESS_KEYS.map((k) => [k, null])), id: bare.id });
      expectError((await t.client(null).get('/customers/me').expect(401)).body);
      expectError((await sf.get('/customers/me').expect(401)).body);
    });

    it("saved addresses: list, create, update, delete; another shopper's is 404", async () => {
      const v = visitor();
      await register(v, 'addr@example.com');
      const { me } = await signIn(t, v, 'addr@example.com');
      const list0 = (await me.get('/customers/me/addresses').expect(200)).body;
      expect(keys(list0)).toEqual(['addresses']);
      const created = (
        await me
          .post('/customers/me/addresses', {
            first_name: 'A',
            street: 'Main',
            house_number: '5b',
            zip_code: '8000',
            location: 'Zürich',
            country_id: ids.countries.CH,
          })
          .expect(201)
      ).body;
      expect(keys(created)).toEqual(['address']);
      expect(keys(created.address)).toEqual(ADDRESS_KEYS);
      expect(created.address).toMatchObject({ first_name: 'A', house_number: '5b', country_id: ids.countries.CH, title_id: null });
      const updated = (await me.put(`/customers/me/addresses/${created.address.id}`, { location: 'Bern', company: null }).expect(200)).body;
      expect(keys(updated)).toEqual(['address']);
      expect(updated.address).toMatchObject({ location: 'Bern', first_name: 'A' });
      const list = (await me.get('/customers/me/addresses').expect(200)).body.addresses;
      expect(list.map((a: { id: string }) => a.id)).toContain(created.address.id);
      list.forEach((a: object) => expect(keys(a)).toEqual(ADDRESS_KEYS));
      // another shopper
      const w = visitor();
      await register(w, 'other@example.com');
      const other = (await signIn(t, w, 'other@example.com')).me;
      expectError((await other.put(`/customers/me/addresses/${created.address.id}`, { location: 'X' }).expect(404)).body);
      expectError((await other.delete(`/customers/me/addresses/${created.address.id}`).expect(404)).body);
      expectError((await me.put('/customers/me/addresses/00000000-0000-4000-8000-000000000000', { location: 'X' }).expect(404)).body);
      await me.delete(`/customers/me/addresses/${created.address.id}`).expect(204);
      expectError((await me.delete(`/customers/me/addresses/${created.address.id}`).expect(404)).body);
    });

    it("orders: summary list (newest first, limit/offset, no Link), receipt, another shopper's order 404", async () => {
      const v = visitor();
      await register(v, 'buyer@example.com');
      const { me } = await signIn(t, v, 'buyer@example.com');
      expect((await me.get('/customers/me/orders').expect(200)).body).toEqual({ orders: [] });
      const placed: string[] = [];
      for (const qty of [1, 2]) {
        await me.post('/cart/items', { article_id: ids.variants['v-1'], quantity: qty }).expect(200);
        await me.post('/cart/items', { article_id: ids.variants['v-2'] }).expect(200);
        const c = (await me.post('/checkouts').expect(200)).body.checkout;
        expectCheckout(c);
        await me.put(`/checkouts/${c.id}`, { shipping_address: address, shipping_method_id: ids.shipping_methods.post }).expect(200);
        const done = (
          await me.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }).expect(200)
        ).body.checkout;
        placed.push(done.order_id);
      }
      const res = await me.get('/customers/me/orders').expect(200);
      expect(keys(res.body)).toEqual(['orders']);
      expect(res.headers.link).toBeUndefined();
      expect(res.body.orders.map((o: { id: string }) => o.id)).toEqual([...placed].reverse());
      for (const o of res.body.orders) {
        expect(keys(o)).toEqual(ORDER_SUMMARY_KEYS);
        expect(isStrOrNull(o.number) && isStrOrNull(o.status) && isNum(o.total) && isInt(o.line_items)).toBe(true);
        expect(o.date).toMatch(ISO_DATE_TIME);
        expect(o.line_items).toBe(2);
      }
      expect(res.body.orders[1].total).toBe(24.9 + 9.9 + 9.5);
      const page = (await me.get('/customers/me/orders?limit=1&offset=1').expect(200)).body.orders;
      expect(page.map((o: { id: string }) => o.id)).toEqual([placed[0]]);
      const receipt = (await me.get(`/customers/me/orders/${placed[0]}`).expect(200)).body;
      expect(keys(receipt)).toEqual(['order']);
      expectReceipt(receipt.order);
      const w = visitor();
      await register(w, 'snoop@example.com');
      const snoop = (await signIn(t, w, 'snoop@example.com')).me;
      expectError((await snoop.get(`/customers/me/orders/${placed[0]}`).expect(404)).body);
      // a saved address from the completed checkout
      expect((await me.get('/customers/me/addresses').expect(200)).body.addresses.some((a: { street: string }) => a.street === 'Bahnhofstrasse')).toBe(true);
    });
  });

  it("CONTRACT 5: a foreign id is 404 (another shop's product, collection, checkout, order)", async () => {
    const other = await t.createShop({ name: 'Other' });
    await other.admin.post('/admin/catalogue/import', contractImport()).expect(200);
    const oc = other.storefront;
    await oc.get(`/products/${ids.products['p-1']}`).expect(404);
    await oc.get(`/collections/${ids.collections.summer}`).expect(404);
    const v = visitor();
    await v.post('/cart/items', { article_id: ids.variants['v-1'] }).expect(200);
    const c = (await v.post('/checkouts').expect(200)).body.checkout;
    await oc.get(`/checkouts/${c.id}`).expect(404);
    // a variant of another shop cannot be added
    await oc.post('/cart/items', { article_id: ids.variants['v-1'] }).expect(422);
  });
});
