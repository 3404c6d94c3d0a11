import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

const PRODUCTS = 1_200;
const product = (i: number, price: unknown = 10) => ({
  key: `p${i}`,
  title: `Wine ${i}`,
  body_html: `<p>${'Deep red. '.repeat(20)}</p>`,
  variants: [{ key: `v${i}`, price, currency: 'CHF' }],
});
/** Settings and the currency first, then the products: one per line, and every tenth line holds three. */
function lines(bad?: { at: number; price: unknown }): string[] {
  const out = [
    JSON.stringify({ currencies: [{ key: 'CHF', code: 'CHF', name: 'Swiss franc', rate: 1 }] }),
    JSON.stringify({ settings: { default_currency: 'CHF' } }),
  ];
  for (let i = 0; i < PRODUCTS;) {
    const n = i % 10 === 0 ? 3 : 1;
    out.push(JSON.stringify({ products: Array.from({ length: n }, (_, k) => product(i + k, bad?.at === i + k ? bad.price : 10)) }));
    i += n;
  }
  return out;
}

/**
 * Issue 30: the NDJSON import is spooled to a temporary file and its products written in batches (500 at most) inside
 * one transaction: an import spanning several batches is all or nothing, a bad product in a late batch is 422 naming
 * its path in the whole import and its line, and the temporary file is gone once answered.
 */
describe('NDJSON import in batches (issue 30)', () => {
  let t: TestApp;
  let shop: TestShop;
  let spoolDir: string;
  const tmp = process.env.TMPDIR;

  const productCount = async (): Promise<number> =>
    Number((await t.db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [shop.tenant.id]))[0].n);
  /** The spooled bodies still there, once the removal that follows each response had its moment. */
  const spooledLeft = async (): Promise<string[]> => {
    for (let i = 0; i < 20 && readdirSync(spoolDir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    return readdirSync(spoolDir);
  };
  const send = (text: string) => shop.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').send(text);

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    // the spooled bodies land here, so what is left behind is this test's
    spoolDir = mkdtempSync(join(tmpdir(), 'import-ndjson-e2e-'));
    process.env.TMPDIR = spoolDir;
  });
  afterAll(async () => {
    process.env.TMPDIR = tmp;
    rmSync(spoolDir, { recursive: true, force: true });
    await t?.close();
  });

  it('a bad product in the third batch is 422 naming its path and line; the first two batches are not kept', async () => {
    const text = lines({ at: 1_100, price: 'cheap' });
    const line = text.findIndex((l) => l.includes('"key":"p1100"')) + 1;
    const res = await send(text.join('\n')).expect(422);
    expect(res.body.errors).toBe(`products[1100].variants[0].price must be a number (line ${line})`);
    // the writer's own checks (past the schema) name the line as well
    const unknownColor = lines();
    unknownColor[unknownColor.length - 1] = JSON.stringify({ products: [{ ...product(PRODUCTS - 1), variants: [{ key: 'vx', price: 1, color: 'nope' }] }] });
    const late = await send(unknownColor.join('\n')).expect(422);
    expect(late.body.errors).toBe(`products[${PRODUCTS - 1}].variants[0].color names no color ("nope") (line ${unknownColor.length})`);
    expect(await productCount()).toBe(0);
    expect(await spooledLeft()).toEqual([]);
  });

  it(`${PRODUCTS} products over three batches are imported whole, and a second identical import changes nothing`, async () => {
    const text = `${lines().join('\n')}\n`;
    const first = (await send(text).expect(200)).body.import;
    expect([first.created.products, first.created.variants]).toEqual([PRODUCTS, PRODUCTS]);
    expect(Object.keys(first.ids.products)).toHaveLength(PRODUCTS);
    expect(await productCount()).toBe(PRODUCTS);
    const again = (await send(text).expect(200)).body.import;
    expect([again.created.products, again.updated.products, again.updated.variants]).toEqual([0, 0, 0]);
    // an Idempotency-Key is bound to the body's bytes (the spooled file's digest), not to where it was spooled
    const keyed = (body: string) =>
      shop.admin.post('/admin/catalogue/import').set('Content-Type', 'application/x-ndjson').set('Idempotency-Key', 'ndjson-once').send(body);
    const once = (await keyed(text).expect(200)).body;
    expect((await keyed(text).expect(200)).body).toEqual(once);
    expect((await keyed(`${text}${JSON.stringify({ products: [product(PRODUCTS)] })}\n`).expect(422)).body.code).toBe('idempotency_key_reused');
    expect(await productCount()).toBe(PRODUCTS);
    const listed = await shop.storefront.get('/products?limit=1&order=title%20asc').expect(200);
    expect(listed.body.products[0].title).toBe('Wine 0');
    expect(await spooledLeft()).toEqual([]);
  });
});
