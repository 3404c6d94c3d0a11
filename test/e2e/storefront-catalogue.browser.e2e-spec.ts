import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { releaseChromium, sameOriginPage, screenshot, startDemoStorefront, text } from './storefront-browser.fixture.js';
import type { TestApp, TestShop } from '../helpers/test-app.js';

/**
 * The reference storefront's shopping pages (issue 37): handle URLs and the redirect of the old UUID URLs, the category
 * menu (a drawer on a phone), the product page's gallery (bottle images shipped in the repository), price per litre and
 * related wines, and the cart drawer with promotion progress. On the demo shop (2,000 products), in headless Chromium;
 * screenshots in test-results/storefront/ with STOREFRONT_SCREENSHOTS=on.
 */
const OUT = join(process.cwd(), 'test-results', 'storefront');
const PHONE = { width: 390, height: 844 };
const API = '/api/2026-04-01';

type Listed = { id: string; handle: string; title: string; manufacturer: { id: string } };
type Detail = Listed & {
  currency: string;
  variants: Array<{ id: string; price: number; size: string | null; facets: { size: { name: string | null } | null; region: { id: string } | null } }>;
};

describe('reference storefront: handles, categories, product page and cart drawer (issue 37)', () => {
  let t: TestApp;
  let shop: TestShop;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ t, shop, browser, base } = await startDemoStorefront(2000, OUT));
  }, 600_000);

  afterAll(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  const visitor = (viewport?: { width: number; height: number }) => sameOriginPage(browser, base, viewport);
  const shot = (page: Page, name: string) => screenshot(page, join(OUT, `${name}.png`), false);
  const open = (page: Page, path = '') => page.goto(`${base}/storefront-demo/${path}${path.includes('?') ? '&' : '?'}token=${shop.storefront_token}`);
  const get = async <T>(path: string): Promise<T> => (await t.client(shop.storefront_token).get(path).expect(200)).body as T;
  const cardIds = (page: Page) => page.locator('.card .card-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

  it('products, collections and categories have handle URLs; the old UUID URLs are replaced by them; titles follow the page', async () => {
    const page = await visitor();
    await open(page, 'wines');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    // every card links to /wines/<handle>, in the order of the API's answer to the page's query
    const first = (await get<{ products: Listed[] }>(`/products?include=facets&limit=24&order=created%20desc`)).products;
    await expect(cardIds(page)).resolves.toEqual(first.map((p) => `/storefront-demo/wines/${p.handle}`));
    await page.locator('.card .card-link').first().click();
    await page.waitForSelector('.product h1');
    expect(new URL(page.url()).pathname).toBe(`/storefront-demo/wines/${first[0]!.handle}`);
    await expect(page.title()).resolves.toBe(`${first[0]!.title} · Vinoshop`);

    // an old product URL opens and becomes the handle URL (no history entry of its own)
    const product = first[3]!;
    await open(page, `products/${product.id}`);
    await page.waitForURL(`**/storefront-demo/wines/${product.handle}`);
    await expect(text(page.locator('.product h1'))).resolves.toBe(product.title);
    await expect(page.title()).resolves.toBe(`${product.title} · Vinoshop`);
    // a handle URL opened directly, and an unknown handle
    await open(page, `wines/${first[5]!.handle}`);
    await expect(text(page.locator('.product h1'))).resolves.toBe(first[5]!.title);
    await open(page, 'wines/no-such-wine');
    await page.getByRole('alert').waitFor();

    // collections: the nav links to handles, an old UUID URL becomes the handle URL, the list is the API's
    const collections = (await get<{ collections: Array<{ id: string; handle: string; title: string }> }>('/collections')).collections;
    const staff = collections.find((c) => c.handle === 'staff-picks')!;
    await open(page, `collections/${staff.id}`);
    await page.waitForURL(`**/storefront-demo/collections/staff-picks`);
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe(staff.title);
    await expect(page.title()).resolves.toBe(`${staff.title} · Vinoshop`);
    const picks = (await get<{ products: Listed[] }>(`/collections/${staff.id}/products?limit=24`)).products;
    await expect(cardIds(page)).resolves.toEqual(picks.map((p) => `/storefront-demo/wines/${p.handle}`));
    await expect(page.locator('nav.collections a', { hasText: staff.title }).getAttribute('href')).resolves.toBe('/storefront-demo/collections/staff-picks');

    // categories: the menu lists the categories facet; a category page lists exactly the API's category_id listing
    const facet = (await get<{ facets: Array<{ key: string; values: Array<{ id: string; name: string; count: number }> }> }>('/products/facets')).facets.find(
      (f) => f.key === 'categories',
    )!;
    const menu = page.getByRole('navigation', { name: 'Wine categories' });
    await expect(menu.locator('a').evaluateAll((as) => as.map((a) => a.textContent!.replace(/\s*\d+$/, '').trim()))).resolves.toEqual([
      'All wines',
      ...facet.values.map((v) => v.name),
    ]);
    const red = facet.values.find((v) => v.name === 'Red wine')!;
    await menu.getByRole('link', { name: /^Red wine/ }).click();
    await page.waitForURL('**/storefront-demo/categories/red-wine');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe('Red wine');
    await expect(page.title()).resolves.toBe('Red wine · Vinoshop');
    await expect(text(page.getByTestId('result-count'))).resolves.toBe(`${red.count} wines`);
    const reds = (await get<{ products: Listed[] }>(`/products?category_id=${red.id}&include=facets&limit=24&order=created%20desc`)).products;
    await expect(cardIds(page)).resolves.toEqual(reds.map((p) => `/storefront-demo/wines/${p.handle}`));
    // a filter on a category page keeps the category
    await page.locator('fieldset[data-facet="countries"] label').first().click();
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    expect(new URL(page.url()).pathname).toBe('/storefront-demo/categories/red-wine');
    await expect(text(page.locator('h1'))).resolves.toBe('Red wine');
    await shot(page, 'category-desktop');
  }, 180_000);

  it('on a phone the category menu is a drawer opened by its button, closed after a choice', async () => {
    const page = await visitor(PHONE);
    await open(page, 'wines');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    const menu = page.getByRole('navigation', { name: 'Wine categories' });
    await expect(menu.isVisible()).resolves.toBe(false);
    expect((await page.locator('.card').first().boundingBox())!.y).toBeLessThan(PHONE.height - 100);
    const button = page.getByRole('button', { name: 'Categories', exact: true });
    await button.click();
    await expect(menu.isVisible()).resolves.toBe(true);
    // (under the full-screen drawer the button is hidden: out of the accessibility tree, so found by its class)
    await expect(page.locator('button.menu-button').getAttribute('aria-expanded')).resolves.toBe('true');
    const white = menu.getByRole('link', { name: /^White wine/ });
    const box = (await white.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await shot(page, 'phone-category-menu');
    await white.click();
    await page.waitForURL('**/storefront-demo/categories/white-wine');
    await expect(menu.isVisible()).resolves.toBe(false);
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe('White wine');
  }, 120_000);

  it('a product page: a gallery of the bottle images shipped in the repository, price per litre beside each price, related wines, the factsheet', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
      const page = await visitor(viewport);
      // a product with several bottle sizes
      const list = (await get<{ products: Array<Listed & { variants_count: number }> }>('/products?limit=50&order=created%20desc')).products;
      const listed = list.find((p) => p.variants_count > 1)!;
      const product = (await get<{ product: Detail }>(`/products/${listed.id}`)).product;
      await open(page, `wines/${product.handle}`);
      await page.waitForSelector('.product h1');
      // the gallery: the first image large, a thumbnail per image; the images are served by the demo itself
      const main = page.getByTestId('gallery-main');
      await expect(main.getAttribute('src')).resolves.toMatch(/^\/storefront-demo\/bottles\/(red|white|rose|sparkling|sweet)-[12]\.svg$/);
      type Doc = { querySelector(s: string): { naturalWidth: number } | null };
      await page.waitForFunction(
        () => (globalThis as unknown as { document: Doc }).document.querySelector('[data-testid="gallery-main"]')?.naturalWidth === 200,
      );
      const thumbs = page.getByRole('button', { name: /^Show picture/ });
      await expect(thumbs.count()).resolves.toBe(2);
      await expect(thumbs.nth(0).getAttribute('aria-pressed')).resolves.toBe('true');
      await thumbs.nth(1).click();
      await expect(main.getAttribute('src')).resolves.toMatch(/-3\.svg$/);
      await expect(thumbs.nth(1).getAttribute('aria-pressed')).resolves.toBe('true');

      // price per litre beside every variant's price: price × 1000 / millilitres, in cents, as the API's sizes name them
      const shown = await page
        .locator('label.variant')
        .evaluateAll((labels) => labels.map((l) => l.querySelector('[data-testid="unit-price"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? null));
      const ml = (size: string) => Math.round(Number(/([\d.]+)\s*cl/.exec(size)![1]) * 10);
      const expected = product.variants.map((v) => {
        const cents = Math.round(v.price * 100);
        const perLitre = Math.round((cents * 1000) / ml(v.facets.size?.name ?? v.size!)) / 100;
        return `Price per litre: ${new Intl.NumberFormat('en-CH', { style: 'currency', currency: product.currency }).format(perLitre)} / l`.replace(
          /\s+/g,
          ' ',
        );
      });
      expect(shown).toEqual(expected);
      // and in the buy bar, for the chosen bottle
      await expect(page.locator('.buy-bar [data-testid="unit-price"]').count()).resolves.toBe(1);
      if (viewport === PHONE) {
        const buy = (await page.locator('.buy-bar button[type="submit"]').boundingBox())!;
        expect(buy.y + buy.height).toBeLessThanOrEqual(PHONE.height);
      }

      // related wines: the same producer, region and grape, by the API's own list filters, without the wine itself
      const related = page.getByTestId('related');
      await related.waitFor();
      const producer = (await get<{ products: Listed[] }>(`/products?vendor=${product.manufacturer.id}&limit=5&order=rating%20desc`)).products
        .filter((p) => p.id !== product.id)
        .slice(0, 4);
      if (producer.length > 0) {
        await expect(related.locator('[data-related="producer"] .card-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).resolves.toEqual(
          producer.map((p) => `/storefront-demo/wines/${p.handle}`),
        );
      }
      const region = product.variants.find((v) => v.facets.region)!.facets.region!.id;
      const sameRegion = (await get<{ products: Listed[] }>(`/products?region_id=${region}&limit=5&order=rating%20desc`)).products
        .filter((p) => p.id !== product.id)
        .slice(0, 4);
      await expect(related.locator('[data-related="region"] .card-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).resolves.toEqual(
        sameRegion.map((p) => `/storefront-demo/wines/${p.handle}`),
      );
      await expect(related.locator('[data-related="grape"] .card').count()).resolves.toBeGreaterThan(0);
      await expect(page.getByRole('link', { name: 'Factsheet (PDF)' }).getAttribute('href')).resolves.toMatch(/^\/storefront\/factsheets\/[0-9a-f-]{36}\.pdf$/);
      await shot(page, viewport === PHONE ? 'phone-product-gallery' : 'product-gallery');
      await page.context().close();
    }
  }, 180_000);

  it('the cart drawer opens after "Add to cart" and shows the progress to a promotion threshold the cart answer reports and to free shipping (free_over)', async () => {
    // the cart answer lists the promotions the buyer is close to (missing at most half the threshold): a threshold
    // 1.5 times the price of the bottle the page adds (its first available variant), so one of it is close
    const cheapest = (await get<{ products: Listed[] }>('/products?limit=1&available=true&order=price%20asc')).products[0]!;
    const added = (await get<{ product: Detail }>(`/products/by_handle?handle=${encodeURIComponent(cheapest.handle)}`)).product.variants.find(
      (v) => (v as { available?: boolean }).available,
    )!;
    // the page adds the first quantity the variant's rule accepts (a case wine in steps of 2 adds 2 bottles)
    const rule = (added as { quantity_rule?: { min: number; increment: number } }).quantity_rule ?? { min: 1, increment: 1 };
    const inc = rule.increment || 1;
    const first = Math.max(inc, Math.ceil((rule.min || 1) / inc - 1e-9) * inc);
    const threshold = Math.ceil(added.price * first * 1.5);
    const promotion = (
      await shop.admin
        .post('/admin/promotions', {
          name: `10% from ${threshold}`,
          conditions: [{ type: 'min_subtotal', amount: threshold }],
          actions: [{ type: 'percent_off_order', percent: 10 }],
        })
        .expect(201)
    ).body.promotion as { id: string };
    const methods = (await get<{ shipping_methods: Array<{ name: string; free_over: number | null }> }>('/shipping_methods?locale=en')).shipping_methods;
    expect(methods.some((m) => m.free_over !== null && m.free_over > added.price)).toBe(true);
    try {
      for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
        const page = await visitor(viewport);
        const listed = (await get<{ products: Listed[] }>('/products?limit=1&available=true&order=price%20asc')).products[0]!;
        await open(page, `wines/${listed.handle}`);
        await page.waitForSelector('.product h1');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        const drawer = page.getByTestId('cart-drawer');
        await drawer.waitFor();
        await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Close cart');
        // the drawer shows what the API's cart answer says
        const cart = await page.evaluate(
          `fetch('${API}/cart', { credentials: 'include', headers: { authorization: 'Bearer ${shop.storefront_token}' } }).then((r) => r.json())`,
        );
        const answer = (
          cart as {
            cart: {
              items_subtotal_price: number;
              total_price: number;
              currency: string;
              available_promotions: Array<{ promotion_id: string; missing_amount: number }>;
            };
          }
        ).cart;
        const hint = answer.available_promotions.find((p) => p.promotion_id === promotion.id)!;
        expect(hint.missing_amount).toBeGreaterThan(0);
        const progress = drawer.getByTestId('drawer-promotion').locator('progress');
        await expect(progress.getAttribute('value')).resolves.toBe(String(Math.round(answer.items_subtotal_price * 100)));
        await expect(progress.getAttribute('max')).resolves.toBe(String(Math.round((answer.items_subtotal_price + hint.missing_amount) * 100)));
        const money = (n: number) => new Intl.NumberFormat('en-CH', { style: 'currency', currency: answer.currency }).format(n).replace(/\s+/g, ' ');
        await expect(text(drawer.getByTestId('drawer-promotion').locator('p'))).resolves.toBe(`${money(hint.missing_amount)} more: 10% from ${threshold}`);
        await expect(text(drawer.getByTestId('drawer-subtotal'))).resolves.toBe(money(answer.items_subtotal_price));
        // free shipping: the lowest free_over of GET /shipping_methods against the cart's total, in cents
        const nearest = methods.filter((m) => m.free_over !== null).sort((a, b) => a.free_over! - b.free_over!)[0]!;
        const free = drawer.getByTestId('drawer-free-shipping');
        await free.waitFor();
        await expect(free.locator('progress').getAttribute('value')).resolves.toBe(String(Math.round(answer.total_price * 100)));
        await expect(free.locator('progress').getAttribute('max')).resolves.toBe(String(Math.round(nearest.free_over! * 100)));
        await expect(text(free.locator('p'))).resolves.toBe(
          `${money((Math.round(nearest.free_over! * 100) - Math.round(answer.total_price * 100)) / 100)} more for free shipping (${nearest.name})`,
        );
        // within the screen, its "Go to checkout" included
        const box = (await drawer.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        await shot(page, viewport === PHONE ? 'phone-cart-drawer' : 'cart-drawer');
        await drawer.getByRole('link', { name: 'Go to checkout' }).click();
        await page.getByRole('heading', { name: 'Checkout' }).waitFor();
        await expect(drawer.count()).resolves.toBe(0);
        await page.context().close();
      }
    } finally {
      await shop.admin.delete(`/admin/promotions/${promotion.id}`);
    }
  }, 120_000);

  it('a slow first cart read does not undo "Add to cart": the drawer stays open with the added bottle', async () => {
    const page = await visitor();
    try {
      // the page's first GET /cart answers 2 s late, after the add's own answer (a slow network, a busy server)
      let slowed = false;
      await page.route(
        (url) => url.pathname === `${API}/cart`,
        async (route) => {
          if (route.request().method() !== 'GET' || slowed) return route.fallback();
          slowed = true;
          // read by the server at once (the cart of before the add), delivered 2 s later
          const response = await route.fetch();
          await new Promise((r) => setTimeout(r, 2_000));
          await route.fulfill({ response });
        },
      );
      const listed = (await get<{ products: Listed[] }>('/products?limit=1&available=true&order=price%20asc')).products[0]!;
      await open(page, `wines/${listed.handle}`);
      await page.waitForSelector('.product h1');
      // the add's own answer is what the drawer must keep showing once the older read arrives
      const [added] = await Promise.all([
        page.waitForResponse((r) => r.url().includes(`${API}/cart/items`) && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Add to cart' }).click(),
      ]);
      expect(added.status()).toBe(200);
      const cart = ((await added.json()) as { cart: { items_subtotal_price: number; currency: string } }).cart;
      const drawer = page.getByTestId('cart-drawer');
      await drawer.waitFor();
      await new Promise((r) => setTimeout(r, 2_500)); // the slow read has answered meanwhile
      expect(slowed).toBe(true);
      await expect(drawer.isVisible()).resolves.toBe(true);
      expect(cart.items_subtotal_price).toBeGreaterThan(0);
      const money = new Intl.NumberFormat('en-CH', { style: 'currency', currency: cart.currency }).format(cart.items_subtotal_price).replace(/\s+/g, ' ');
      await expect(text(drawer.getByTestId('drawer-subtotal'))).resolves.toBe(money);
      // and the cart is still this browser's: the slow read's answer carried a visitor cookie of its own (it was sent
      // before the browser had one), and the add waited for it (examples/storefront/src/api/visitor-gate.ts)
      const again = (await page.evaluate(
        `fetch('${API}/cart', { credentials: 'include', headers: { authorization: 'Bearer ${shop.storefront_token}' } }).then((r) => r.json())`,
      )) as { cart: { items_subtotal_price: number } };
      expect(again.cart.items_subtotal_price).toBe(cart.items_subtotal_price);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
