import type { ProductListDto, VariantDto } from './dto/catalogue.dto.js';
import type { VariantStock } from '../extensions/index.js';
import { createHash } from 'node:crypto';
import { filledListJson, fixedListJson, listArrayParts, parseListJson, toListJson, writeListArray } from './list-json.js';

const variant = (id: string, over: Partial<VariantDto> = {}): VariantDto =>
  ({
    id,
    product_id: 'p',
    handle: null,
    title: 'Château Müller — 75 cl "Réserve"',
    sku: `SKU-${id}`,
    option_group: null,
    price: 12.5,
    net_price: 11.56,
    compare_at_price: 0,
    tax_rate: 0,
    available: true,
    inventory_quantity: 7,
    description: 'ß ü 😀',
    description_additional: '',
    year: '2019',
    size: '75 cl',
    area: null,
    country: 'France',
    alcohol_volume: null,
    quantity_rule: { min: 1, max: null, increment: 1 },
    custom_fields: [],
    factsheet_url: `/storefront/factsheets/${id}.pdf`,
    facets: { color: null, region: null, vintage: null, size: null, options: [] },
    ...over,
  }) as VariantDto;

const product = (variants: VariantDto[]): ProductListDto =>
  ({
    id: 'p',
    handle: 'chateau',
    title: 'Château Ünïcödé 🍷',
    body_html: '<p>"quoted" \\ backslash</p>',
    image: null,
    available: variants.some((v) => v.available),
    currency: 'CHF',
    price_min: 12.5,
    price_max: 12.5,
    variants_count: variants.length,
    manufacturer: { id: null, name: null, logo_url: null },
    flag: { name: null, color: null },
    rating: 4.5,
    rating_count: 3,
    custom_fields: [],
    variants,
  }) as unknown as ProductListDto;

describe('list JSON with stock holes', () => {
  const p = product([variant('a'), variant('b', { available: false, inventory_quantity: 0 })]);

  it('writes exactly JSON.stringify of the product when the stock is as loaded (multi-byte text included)', () => {
    const j = toListJson(p);
    expect(writeListArray([j], new Map()).toString('utf8')).toBe(JSON.stringify([p]));
    expect(j.variantIds).toEqual(['a', 'b']);
  });

  it('fills the live availability and on-hand of each variant and the product', () => {
    const j = toListJson(p);
    const stock = new Map<string, VariantStock>([
      ['a', { available: false, onHand: 0 }],
      ['b', { available: true, onHand: 1234 }],
    ]);
    const expected = {
      ...p,
      available: true,
      variants: [
        { ...p.variants[0], available: false, inventory_quantity: 0 },
        { ...p.variants[1], available: true, inventory_quantity: 1234 },
      ],
    };
    expect(writeListArray([j, j], stock).toString('utf8')).toBe(JSON.stringify([expected, expected]));
    expect(parseListJson(j, stock)).toEqual(expected);
  });

  it('a product is unavailable when no variant is, and an empty list is []', () => {
    const j = toListJson(p);
    const stock = new Map<string, VariantStock>([['a', { available: false, onHand: 0 }]]);
    expect(parseListJson(j, stock).available).toBe(false);
    expect(writeListArray([], stock).toString('utf8')).toBe('[]');
  });

  it('a value that looks like a hole marker stays text', () => {
    const tricky = product([variant('a', { title: '\u0000abc:1' })]);
    expect(writeListArray([toListJson(tricky)], new Map()).toString('utf8')).toBe(JSON.stringify([tricky]));
  });

  it('keeps the bytes of the last fill while the stock values are the same, and fills anew (a new buffer) when they change', () => {
    const j = toListJson(p);
    const before = new Map<string, VariantStock>([['a', { available: true, onHand: 5 }]]);
    const first = filledListJson(j, before);
    const text = first.buf.toString('utf8');
    expect(filledListJson(j, new Map(before)).buf).toBe(first.buf);
    expect(first.digest).toEqual(createHash('sha1').update(first.buf).digest());
    const after = filledListJson(j, new Map<string, VariantStock>([['a', { available: true, onHand: 4 }]]));
    expect(after.buf).not.toBe(first.buf);
    expect(JSON.parse(after.buf.toString('utf8')).variants[0].inventory_quantity).toBe(4);
    // a response still writing the first bytes is not changed under it
    expect(first.buf.toString('utf8')).toBe(text);
    // a product without holes is its own text
    const fixed = fixedListJson(p);
    expect(filledListJson(fixed, before).buf).toBe(fixed.text);
  });

  it("writes a page as the products' buffers in order, with a digest that follows every product's bytes", () => {
    const j = toListJson(p);
    const k = toListJson(product([variant('c')]));
    const stock = new Map<string, VariantStock>([['a', { available: true, onHand: 5 }]]);
    const page = listArrayParts([j, k], stock);
    expect(Buffer.concat(page.parts.map((p) => p.buf)).toString('utf8')).toBe(writeListArray([j, k], stock).toString('utf8'));
    expect(page.parts[1].buf).toBe(filledListJson(j, stock).buf);
    expect(listArrayParts([j, k], new Map(stock)).digest).toBe(page.digest);
    expect(listArrayParts([k, j], stock).digest).not.toBe(page.digest);
    expect(listArrayParts([j, k], new Map<string, VariantStock>([['a', { available: true, onHand: 6 }]])).digest).not.toBe(page.digest);
    expect(
      listArrayParts([], stock)
        .parts.map((p) => p.buf.toString())
        .join(''),
    ).toBe('[]');
  });
});
