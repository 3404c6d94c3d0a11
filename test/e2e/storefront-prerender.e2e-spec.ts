import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { fixtureImport } from './catalogue.fixture.js';

/**
 * Prerendered storefront pages (issue 37): what a crawler without JavaScript gets at /storefront-demo/ for a product
 * and a listing, read as plain HTTP: the title, meta description, canonical URL, schema.org JSON-LD and the products,
 * from the request's shop, every shop string escaped.
 */
const HOSTILE = `Alpha </script><script>alert(1)</script> & "Merlot" <!--`;
const SHELL =
  '<!doctype html><html lang="en"><head><meta charset="utf-8" /><meta name="description" content="The shop." /><title>Vinoshop</title></head>' +
  '<body><div id="root"></div><script type="module" src="/storefront-demo/assets/index-a.js"></script></body></html>';

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
function read(html: string) {
  const one = (re: RegExp) => {
    const m = re.exec(html);
    return m ? unescape(m[1]) : null;
  };
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    title: one(/<title>([^<]*)<\/title>/),
    description: one(/<meta name="description" content="([^"]*)"/),
    canonical: one(/<link rel="canonical" href="([^"]*)">/),
    jsonLd: ld ? (JSON.parse(ld) as Record<string, any>) : null,
    h1: one(/<h1>([^<]*)<\/h1>/),
    links: [...html.matchAll(/<li class="pre-card"><a href="([^"]*)">/g)].map((m) => unescape(m[1])),
    scripts: html.match(/<script/g)?.length ?? 0,
  };
}

describe('storefront prerendered pages (issue 37)', () => {
  const build = mkdtempSync(join(tmpdir(), 'storefront-prerender-'));
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let page: (path: string, token?: string | null) => Promise<{ status: number; text: string; headers: Record<string, string> }>;

  beforeAll(async () => {
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'index.html'), SHELL);
    t = await createTestApp({ config: { STOREFRONT_DEMO: true, STOREFRONT_DEMO_DIR: build } });
    shop = await t.createShop();
    other = await t.createShop();
    const body = fixtureImport() as { products: Array<{ key: string; title: unknown }>; collections?: unknown[] };
    body.collections = [{ key: 'picks', title: 'Staff picks', collection_type: 'manual', published: true, products: ['p5', 'p1', 'p3'] }];
    await other.admin.post('/admin/catalogue/import', body).expect(200);
    body.products.find((p) => p.key === 'p1')!.title = HOSTILE;
    await shop.admin.post('/admin/catalogue/import', body).expect(200);
    page = async (path, token = shop.storefront_token) => {
      const r = await t.http().get(`/storefront-demo${path}${token ? `${path.includes('?') ? '&' : '?'}token=${token}` : ''}`);
      return { status: r.status, text: r.text, headers: r.headers as Record<string, string> };
    };
  });
  afterAll(async () => {
    await t?.close();
    rmSync(build, { recursive: true, force: true });
  });

  it('a product page holds its title, description, canonical URL, JSON-LD with an Offer per variant and its content', async () => {
    const api = (await shop.storefront.get('/products/by_handle?handle=p1-alpha-merlot').expect(200)).body.product;
    const r = await page('/wines/p1-alpha-merlot');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    const p = read(r.text);
    // the hostile name stays text: the JSON-LD and the app's module are the only scripts
    expect(p.scripts).toBe(2);
    expect(r.text).not.toContain('<script>alert');
    expect(p.title).toBe(`${HOSTILE} · Vinoshop`);
    expect(p.h1).toBe(HOSTILE);
    expect(p.description).toBe(`${HOSTILE} · Château Lafleur`);
    expect(r.text).toContain('data-default="The shop."');
    expect(p.canonical).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storefront-demo\/wines\/p1-alpha-merlot$/);
    expect(p.jsonLd).toMatchObject({ '@type': 'Product', name: HOSTILE, url: p.canonical, brand: { name: 'Château Lafleur' } });
    expect(p.jsonLd!.offers).toEqual(
      api.variants.map((v: { price: number; sku: string; available: boolean }) =>
        expect.objectContaining({
          price: v.price.toFixed(2),
          priceCurrency: api.currency,
          sku: v.sku,
          availability: `https://schema.org/${v.available ? 'InStock' : 'OutOfStock'}`,
        }),
      ),
    );
    expect(r.text).toContain(`CHF\u00a0${api.variants[0].price.toFixed(2)}`);
  });

  it('a listing (all wines, a collection, a category) holds the API’s first products in its order', async () => {
    const all = (await shop.storefront.get('/products?include=facets&limit=24&order=created%20desc').expect(200)).body;
    const wines = read((await page('/wines')).text);
    expect(wines.title).toBe('All wines · Vinoshop');
    expect(wines.h1).toBe('All wines');
    expect(wines.canonical).toMatch(/\/storefront-demo\/wines$/);
    const count = all.facets.find((f: { key: string }) => f.key === 'manufacturers').values.reduce((s: number, v: { count: number }) => s + v.count, 0);
    expect(wines.description).toBe(`All wines: ${count} wines at Vinoshop, with region, grape, vintage and the price per litre.`);
    expect(wines.links).toEqual(all.products.map((p: { handle: string }) => `/storefront-demo/wines/${p.handle}`));
    expect(wines.jsonLd).toBeNull();

    const { collections } = (await shop.storefront.get('/collections').expect(200)).body;
    const picks = collections.find((c: { title: string }) => c.title === 'Staff picks');
    const inPicks = (await shop.storefront.get(`/collections/${picks.id}/products?limit=24`).expect(200)).body.products;
    const collection = read((await page(`/collections/${picks.handle}`)).text);
    expect(collection.h1).toBe('Staff picks');
    expect(collection.links).toEqual(inPicks.map((p: { handle: string }) => `/storefront-demo/wines/${p.handle}`));
    expect(collection.links).toHaveLength(3);

    const facets = (await shop.storefront.get('/products/facets').expect(200)).body.facets;
    const red = facets.find((f: { key: string }) => f.key === 'categories').values.find((v: { name: string }) => v.name === 'Red wine');
    const inRed = (await shop.storefront.get(`/products?category_id=${red.id}&limit=24&order=created%20desc`).expect(200)).body.products;
    const category = read((await page('/categories/red-wine')).text);
    expect(category.title).toBe('Red wine · Vinoshop');
    expect(category.links).toEqual(inRed.map((p: { handle: string }) => `/storefront-demo/wines/${p.handle}`));
    expect(category.links.length).toBeGreaterThan(0);
  });

  it('follows the shop of the request: another shop’s token gets its own product, no shop gets the bare shell', async () => {
    const theirs = read((await page('/wines/p1-alpha-merlot', other.storefront_token)).text);
    expect(theirs.h1).toBe('Alpha Merlot');
    // two shops and no token or host of theirs: the API names no shop, the page is the shell as it was
    const none = await page('/wines/p1-alpha-merlot', null);
    expect(none.status).toBe(200);
    expect(none.text).not.toContain('Alpha');
    expect(read(none.text).jsonLd).toBeNull();
    expect(none.text).toContain('<div id="root"></div>');
  });

  it('an unknown or malformed product, collection or category is the shell with a 404, never a 500', async () => {
    for (const path of ['/wines/no-such-wine', '/collections/nope', '/categories/nope', '/wines/%E0%A4%A', `/wines/${'x'.repeat(3000)}`]) {
      const r = await page(path);
      expect([path, r.status]).toEqual([path, 404]);
      expect(r.text).toContain('<div id="root"></div>');
      expect(r.text).not.toContain('rel="canonical"');
    }
    // the app's other routes are the shell as before
    const account = await page('/account/sign-in');
    expect(account.status).toBe(200);
    expect(account.text).toContain('<title>Vinoshop</title>');
  });
});
