import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

const MAX_LINE = 4_096;
const MAX_LINES = 20;
const MAX_PRODUCTS = 5;

const product = (key: string, body = '') => ({ key, title: key, body_html: `<p>${body}</p>`, variants: [{ key: `${key}-v`, price: 10 }] });
const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n');

describe('import limits: NDJSON lines and the per-shop product quota (issue 30)', () => {
  let t: TestApp;
  let shop: TestShop;

  const productCount = async (s: TestShop): Promise<number> =>
    Number((await t.db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [s.tenant.id]))[0].n);
  const sendNdjson = (s: TestShop, text: string) => s.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').send(text);

  beforeAll(async () => {
    t = await createTestApp({ config: { IMPORT_NDJSON_MAX_LINE_BYTES: MAX_LINE, IMPORT_NDJSON_MAX_LINES: MAX_LINES, TENANT_MAX_PRODUCTS: MAX_PRODUCTS } });
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  it('a line over IMPORT_NDJSON_MAX_LINE_BYTES is 413 naming its line number, and nothing is written', async () => {
    const long = { products: [product('b', 'x'.repeat(MAX_LINE))] };
    const res = await sendNdjson(shop, ndjson([{ products: [product('a')] }, { products: [product('c')] }, long, { products: [product('d')] }])).expect(413);
    expect(res.body).toEqual({ errors: `line 3 is longer than ${MAX_LINE} bytes (IMPORT_NDJSON_MAX_LINE_BYTES)` });
    expect(await productCount(shop)).toBe(0);
    // just under the limit is read
    const fits = { products: [product('b', 'x'.repeat(MAX_LINE - 200))] };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBeLessThanOrEqual(MAX_LINE);
    await sendNdjson(shop, ndjson([fits])).expect(200);
    expect(await productCount(shop)).toBe(1);
  });

  it('more than IMPORT_NDJSON_MAX_LINES lines is 413, and nothing is written', async () => {
    const other = await t.createShop();
    const lines = Array.from({ length: MAX_LINES + 1 }, () => ({ products: [] }));
    const res = await sendNdjson(other, ndjson(lines)).expect(413);
    expect(res.body).toEqual({ errors: `the body has more than ${MAX_LINES} lines (IMPORT_NDJSON_MAX_LINES)` });
    await sendNdjson(other, ndjson(lines.slice(1))).expect(200);
  });

  it('TENANT_MAX_PRODUCTS: the import and POST /admin/products past it are 422 naming it, and write nothing', async () => {
    const s = await t.createShop();
    const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => product(`p${from + i}`));
    // more in one document than the quota: refused before anything is written
    let res = await s.admin.post('/admin/catalogue/import', { products: keys(MAX_PRODUCTS + 1) }).expect(422);
    expect(res.body.errors).toBe(`products: ${MAX_PRODUCTS + 1} products are more than TENANT_MAX_PRODUCTS (${MAX_PRODUCTS})`);
    expect(await productCount(s)).toBe(0);
    await s.admin.post('/admin/catalogue/import', { products: keys(3) }).expect(200);
    // re-importing the same keys adds nothing; new keys past the quota are refused whole
    await s.admin.post('/admin/catalogue/import', { products: keys(3) }).expect(200);
    res = await s.admin.post('/admin/catalogue/import', { products: keys(3, 3) }).expect(422);
    expect(res.body.errors).toBe(`products: the shop would hold ${MAX_PRODUCTS + 1} products, more than TENANT_MAX_PRODUCTS (${MAX_PRODUCTS})`);
    expect(await productCount(s)).toBe(3);
    await s.admin.post('/admin/catalogue/import', { products: keys(2, 3) }).expect(200);
    expect(await productCount(s)).toBe(MAX_PRODUCTS);

    res = await s.admin.post('/admin/products', { title: 'One more', variants: [{ price: 5 }] }).expect(422);
    expect(res.body.errors).toBe(`product: the shop would hold ${MAX_PRODUCTS + 1} products, more than TENANT_MAX_PRODUCTS (${MAX_PRODUCTS})`);
    expect(await productCount(s)).toBe(MAX_PRODUCTS);
    // another shop has its own quota
    await shop.admin.post('/admin/products', { title: 'Elsewhere', variants: [{ price: 5 }] }).expect(201);
    // room again after a delete
    const list = (await s.admin.get('/admin/products').expect(200)).body.products as Array<{ id: string }>;
    await s.admin.delete(`/admin/products/${list[0].id}`).expect(204);
    await s.admin.post('/admin/products', { title: 'One more', variants: [{ price: 5 }] }).expect(201);
    expect(await productCount(s)).toBe(MAX_PRODUCTS);
  });
});
