import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { releaseChromium, sameOriginPage, screenshot, startDemoStorefront, text } from './storefront-browser.fixture.js';
import { formatCurrency } from '../../examples/storefront/src/money.js';
import { BENCHMARK_INDEX, throttlingRate } from '../helpers/cpu-throttling.js';
import type { TestApp, TestShop } from '../helpers/test-app.js';

/**
 * The reference storefront's home page, search-engine data and the whole phone journey (issue 37): the home page's
 * rows are the API's own lists; `/` with a query string and `/wines` are the listing; a product page carries
 * schema.org Product JSON-LD, a meta description and a canonical URL; and on a 390×844 touch phone a guest goes home →
 * category → filter → product → cart drawer → checkout → confirmation, each page passing axe-core (no serious or
 * critical violation) without sideways scrolling, each next action within the first screen. 400-product demo shop.
 */
const OUT = join(process.cwd(), 'test-results', 'storefront');
const AXE = readFileSync(join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface AxeFinding {
  id: string;
  impact: string | null;
  nodes: string[];
}
type Listed = { id: string; handle: string; title: string };

describe('reference storefront: home page, search-engine data and the phone journey (issue 37)', () => {
  let t: TestApp;
  let shop: TestShop;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ t, shop, browser, base } = await startDemoStorefront(400, OUT));
  }, 600_000);

  afterAll(async () => {
    // STOREFRONT_DOCS=1: the storefront README's pictures from this demo shop (examples/storefront/scripts/screenshots.mjs)
    if (process.env.STOREFRONT_DOCS === '1' && browser && shop) {
      const script = pathToFileURL(join(process.cwd(), 'examples', 'storefront', 'scripts', 'screenshots.mjs')).href;
      const { takeScreenshots } = (await import(script)) as { takeScreenshots(b: Browser, url: string): Promise<string[]> };
      process.stderr.write(`[storefront] ${(await takeScreenshots(browser, `${base}/storefront-demo/?token=${shop.storefront_token}`)).join('\n')}\n`);
    }
    await releaseChromium(browser);
    await t?.close();
  });

  const open = (page: Page, path = '') => page.goto(`${base}/storefront-demo/${path}${path.includes('?') ? '&' : '?'}token=${shop.storefront_token}`);
  const get = async <T>(path: string): Promise<T> => (await t.client(shop.storefront_token).get(path).expect(200)).body as T;
  const hrefs = (list: Locator) => list.locator('.card .card-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const wines = (products: Listed[]) => products.map((p) => `/storefront-demo/wines/${p.handle}`);
  const head = (page: Page, selector: string, attribute: string) => page.locator(`head ${selector}`).getAttribute(attribute);

  async function expectAccessible(page: Page, name: string): Promise<void> {
    await page.evaluate(AXE);
    const found = await page.evaluate<AxeFinding[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((x) => x.target.join(' ')) })))`);
    const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect({ page: name, serious }).toEqual({ page: name, serious: [] });
  }
  it('the home page shows the API’s collections, new arrivals and best rated wines; its hero leads to all wines; `/` with a query is the listing', async () => {
    const page = await sameOriginPage(browser, base);
    await open(page);
    await page.getByRole('heading', { name: 'Wines from the growers, delivered', level: 1 }).waitFor();
    await expect(page.title()).resolves.toBe('Wines from the growers, delivered · Vinoshop');
    await expect(head(page, 'meta[name="description"]', 'content')).resolves.toMatch(/^Hundreds of wines from small producers/);
    // the model: the API's lists the page says it shows
    const arrivals = (await get<{ products: Listed[] }>('/products?limit=4&order=created%20desc&available=true')).products;
    const rated = (await get<{ products: Listed[] }>('/products?limit=4&order=rating%20desc&available=true')).products;
    const collections = (await get<{ collections: Array<{ title: string; products_count: number }> }>('/collections')).collections;
    await page.getByTestId('new-arrivals').locator('.card').first().waitFor();
    await page.getByTestId('best-rated').locator('.card').first().waitFor();
    expect(arrivals).toHaveLength(4);
    await expect(hrefs(page.getByTestId('new-arrivals'))).resolves.toEqual(wines(arrivals));
    await expect(hrefs(page.getByTestId('best-rated'))).resolves.toEqual(wines(rated));
    const shown = collections
      .filter((c) => c.products_count > 0)
      .sort((a, b) => b.products_count - a.products_count)
      .slice(0, 6);
    expect(shown.length).toBeGreaterThan(0);
    await expect(page.getByTestId('home-collections').locator('strong').allTextContents()).resolves.toEqual(shown.map((c) => c.title));
    await expectAccessible(page, 'home');

    await page.getByRole('link', { name: 'Shop all wines' }).click();
    await page.waitForURL('**/storefront-demo/wines');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe('All wines');
    await expect(head(page, 'meta[name="description"]', 'content')).resolves.toMatch(/^All wines: \d+ wines at Vinoshop/);
    await expect(head(page, 'link[rel="canonical"]', 'href')).resolves.toBe(`${base}/storefront-demo/wines`);
    const first = (await get<{ products: Listed[] }>('/products?include=facets&limit=24&order=created%20desc')).products;
    await expect(hrefs(page.locator('section.results'))).resolves.toEqual(wines(first));

    // an old listing URL (`/` with filters) is still the listing
    const inStock = (await get<{ products: Listed[] }>('/products?limit=24&order=created%20desc&available=true')).products;
    await open(page, '?available=true');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe('All wines');
    await expect(hrefs(page.locator('section.results'))).resolves.toEqual(wines(inStock));
    await page.context().close();
  }, 120_000);

  it('a product page carries schema.org Product JSON-LD with an Offer per variant, a meta description and its canonical URL', async () => {
    const listed = (await get<{ products: Listed[] }>('/products?limit=1&order=rating%20desc')).products[0]!;
    type Detail = Listed & { currency: string; variants: Array<{ sku: string | null; price: number; available: boolean }> };
    const product = (await get<{ product: Detail }>(`/products/by_handle?handle=${encodeURIComponent(listed.handle)}`)).product;
    const page = await sameOriginPage(browser, base);
    await open(page, `wines/${listed.handle}`);
    await page.waitForSelector('.product h1');
    const url = `${base}/storefront-demo/wines/${listed.handle}`;
    await page.locator('head script[type="application/ld+json"]').waitFor({ state: 'attached' });
    const ld = JSON.parse((await page.locator('head script[type="application/ld+json"]').textContent())!) as Record<string, unknown>;
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Product', name: product.title, url });
    expect(ld.offers).toEqual(
      product.variants.map((v) =>
        expect.objectContaining({
          '@type': 'Offer',
          price: v.price.toFixed(2),
          priceCurrency: product.currency,
          availability: v.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        }),
      ),
    );
    await expect(head(page, 'link[rel="canonical"]', 'href')).resolves.toBe(url);
    await expect(head(page, 'meta[name="description"]', 'content')).resolves.not.toBe('');
    await expect(page.title()).resolves.toBe(`${product.title} · Vinoshop`);
    // leaving the page takes its JSON-LD away
    await page.locator('.brand').click();
    await page.getByRole('heading', { name: 'Wines from the growers, delivered' }).waitFor();
    await expect(page.locator('head script[type="application/ld+json"]').count()).resolves.toBe(0);
    await page.context().close();
  }, 120_000);

  it('prerendered pages: without JavaScript a product and a listing show title, description, canonical, JSON-LD and products; with it the app replaces them (one heading, interactive, no console error)', async () => {
    type Detail = Listed & { currency: string; variants: Array<{ price: number }> };
    const listed = (await get<{ products: Listed[] }>('/products?limit=1&order=rating%20desc&available=true')).products[0]!;
    const product = (await get<{ product: Detail }>(`/products/by_handle?handle=${encodeURIComponent(listed.handle)}`)).product;
    const first = (await get<{ products: Listed[] }>('/products?include=facets&limit=24&order=created%20desc')).products;
    const url = `${base}/storefront-demo/wines/${listed.handle}`;

    // a crawler: no script runs
    const crawler = await browser.newContext({ javaScriptEnabled: false });
    const still = await crawler.newPage();
    await open(still, `wines/${listed.handle}`);
    await expect(still.title()).resolves.toBe(`${product.title} · Vinoshop`);
    await expect(text(still.locator('h1'))).resolves.toBe(product.title);
    await expect(head(still, 'link[rel="canonical"]', 'href')).resolves.toBe(url);
    await expect(head(still, 'meta[name="description"]', 'content')).resolves.not.toMatch(/^Vinoshop reference storefront/);
    const ld = JSON.parse((await still.locator('head script[type="application/ld+json"]').textContent())!) as { name: string; offers: unknown[] };
    expect(ld).toMatchObject({ name: product.title, url });
    expect(ld.offers).toHaveLength(product.variants.length);
    await expect(still.locator('.pre-product').getByText(product.variants[0]!.price.toFixed(2), { exact: false }).first().isVisible()).resolves.toBe(true);
    await open(still, 'wines');
    await expect(still.title()).resolves.toBe('All wines · Vinoshop');
    await expect(head(still, 'meta[name="description"]', 'content')).resolves.toMatch(/^All wines: \d+ wines at Vinoshop/);
    await expect(head(still, 'link[rel="canonical"]', 'href')).resolves.toBe(`${base}/storefront-demo/wines`);
    await expect(still.locator('.pre-card a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).resolves.toEqual(wines(first));
    await crawler.close();

    // a shopper: the app takes the page over, once, and works
    const page = await sameOriginPage(browser, base);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await open(page, 'wines');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(hrefs(page.locator('section.results'))).resolves.toEqual(wines(first));
    await expect(page.locator('.prerendered, .pre-card').count()).resolves.toBe(0);
    await expect(page.locator('h1').count()).resolves.toBe(1);
    await expect(page.locator('main').count()).resolves.toBe(1);
    await expect(page.locator('.card').count()).resolves.toBe(first.length);
    await Promise.all([page.waitForURL(/available=true/), page.getByLabel('In stock only').click()]);
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await open(page, `wines/${listed.handle}`);
    await page.waitForSelector('.product h1');
    await expect(page.locator('.prerendered').count()).resolves.toBe(0);
    await expect(page.locator('h1').count()).resolves.toBe(1);
    for (const selector of ['script[type="application/ld+json"]', 'link[rel="canonical"]', 'meta[name="description"]', 'title'])
      await expect(page.locator(`head ${selector}`).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByTestId('cart-drawer').waitFor();
    // leaving the page restores the shop's own description, not the prerendered product's
    await page.locator('.brand').click();
    await page.getByRole('heading', { name: 'Wines from the growers, delivered' }).waitFor();
    await expect(head(page, 'meta[name="description"]', 'content')).resolves.toMatch(/^Hundreds of wines from small producers/);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('budgets on a throttled machine (CPU 4× slower, at most, and never below a BenchmarkIndex of 600; 1.6 Mbps / 150 ms): the listing shows its first products within 2.0 s and blocks the main thread at most 300 ms in all (the best of 3 cold loads: the machine is shared)', async () => {
    type Run = { index: number; rate: number; fcp: number; products: number; app: number; tbt: number; tasks: number[][] };
    const runs: Run[] = [];
    // another test's CPU (npm test runs two files at once) only ever adds time: the best of three loads is the figure
    for (let i = 0; i < 3; i += 1) {
      const page = await sameOriginPage(browser, base);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 });
      // the slowdown is relative to the host: the device emulated is this Chromium's speed (measured right before the
      // load, other work included) divided by the rate, so the rate is 4 unless that would emulate a device slower
      // than BenchmarkIndex 600 (what 4× gave on the machine the budgets were set on)
      const index = await page.evaluate<number>(BENCHMARK_INDEX);
      const rate = throttlingRate(index);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      // the long tasks, and the first frame showing a product card: the prerendered page's (in the HTML) or the app's
      // (its root shown), and the first frame showing the app's own cards (the page is the app's from then on)
      await page.addInitScript(`(() => {
        const m = (window.__budget = { products: null, app: null, tasks: [] });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) m.tasks.push([Math.round(e.startTime), Math.round(e.duration)]);
        }).observe({ type: 'longtask', buffered: true });
        const look = () => {
          const root = document.getElementById('root');
          const app = root && !root.hidden && root.querySelector('section.results .card');
          if (m.products === null && (app || document.querySelector('.pre-card'))) m.products = performance.now();
          if (app) m.app = performance.now();
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      })()`);
      await open(page, 'wines');
      await page.waitForSelector('section.results[aria-busy="false"] .card', { timeout: 30_000 });
      // the long tasks of the first render and of what follows it (the wishlist, the category menu)
      await page.waitForTimeout(1000);
      const m = await page.evaluate<{ products: number; app: number; fcp: number; tasks: number[][] }>(
        `({ ...window.__budget, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1 })`,
      );
      // total blocking time as Lighthouse counts it: each long task's time over 50 ms, from the first contentful paint on
      const tbt = m.tasks.reduce((sum, [start, duration]) => sum + Math.max(0, start + duration - Math.max(start, m.fcp) - 50), 0);
      runs.push({ index, rate, fcp: Math.round(m.fcp), products: Math.round(m.products), app: Math.round(m.app), tbt: Math.round(tbt), tasks: m.tasks });
      await page.context().close();
    }
    process.stderr.write(`[storefront] throttled listing (CPU rate by BenchmarkIndex, 1.6 Mbps / 150 ms), ms: ${JSON.stringify(runs)}\n`);
    writeFileSync(join(OUT, 'throttled-listing.json'), JSON.stringify(runs, null, 2));
    expect(Math.min(...runs.map((r) => r.products))).toBeLessThanOrEqual(2000);
    expect(Math.min(...runs.map((r) => r.tbt))).toBeLessThanOrEqual(300);

    // the app writes prices without Intl (its first use is a long task): in exactly the words of this browser's Intl
    const page = await sameOriginPage(browser, base);
    await open(page, 'cart');
    const amounts = [0, 0.5, 9.95, 12.345, 1234.5, 99999.99, -5];
    for (const [locale, currency] of [
      ['en-CH', 'CHF'],
      ['de-CH', 'CHF'],
      ['de-CH', 'EUR'],
    ]) {
      const intl = await page.evaluate(({ l, c, list }) => list.map((a) => new Intl.NumberFormat(l, { style: 'currency', currency: c }).format(a)), {
        l: locale,
        c: currency,
        list: amounts,
      });
      expect(amounts.map((a) => formatCurrency(a, currency, locale))).toEqual(intl);
    }
    await page.context().close();
  }, 180_000);

  /**
   * The journey a guest makes (home → category → "In stock only" → product → cart drawer → checkout → confirmation),
   * on a touch phone or a desktop: each page passes axe, fits the width, and shows its next action on the first screen.
   */
  async function journey(screen: { width: number; height: number }, phone: boolean, name: string): Promise<void> {
    const context = await browser.newContext({ viewport: screen, hasTouch: phone, isMobile: phone });
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === base ? route.continue() : route.abort()));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const shot = (step: string) => screenshot(page, join(OUT, `journey-${name}-${step}.png`), false);
    const press = (action: Locator) => (phone ? action.tap() : action.click());
    /** The page fits the screen's width, and `action` lies within the first screen (no scrolling to reach it). */
    const expectScreen = async (step: string, action: Locator) => {
      await expect(page.evaluate('[document.documentElement.scrollWidth <= window.innerWidth, window.scrollY]')).resolves.toEqual([true, 0]);
      const box = (await action.boundingBox())!;
      expect({ step, inFirstScreen: box.y >= 0 && box.y + box.height <= screen.height }).toEqual({ step, inFirstScreen: true });
      await expectAccessible(page, `${name} ${step}`);
    };

    // home: the category menu (behind its button on a phone, a row on a desktop)
    await open(page);
    await page.getByTestId('new-arrivals').locator('.card').first().waitFor();
    const red = page.getByRole('navigation', { name: 'Wine categories' }).getByRole('link', { name: /^Red wine/ });
    if (phone) {
      const menuButton = page.getByRole('button', { name: 'Categories', exact: true });
      await expectScreen('home', menuButton);
      await shot('home');
      await press(menuButton);
      await expectScreen('category menu', red);
    } else {
      await expectScreen('home', red);
      await shot('home');
    }
    await press(red);

    // the category: "In stock only" (in the filter drawer on a phone, closed by "Show N results"; in the sidebar on a desktop)
    await page.waitForURL('**/storefront-demo/categories/red-wine');
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await expect(text(page.locator('h1'))).resolves.toBe('Red wine');
    const inStock = page.getByLabel('In stock only');
    if (phone) {
      const filters = page.getByRole('button', { name: 'Filters', exact: true });
      await expectScreen('category', filters);
      await press(filters);
      await expect(inStock.isVisible()).resolves.toBe(true);
    } else {
      await expectScreen('category', inStock);
    }
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/2026-04-01/products?') && r.url().includes('available=true')), press(inStock)]);
    await page.waitForSelector('section.results[aria-busy="false"]');
    if (phone) {
      const show = page.getByRole('button', { name: /^Show \d+ results$/ });
      await expectScreen('filter drawer', show);
      await press(show);
    }
    const firstCard = page.locator('section.results .card .card-link').first();
    await expectScreen('filtered category', firstCard);
    await shot('category');
    expect(new URLSearchParams(new URL(page.url()).search).get('available')).toBe('true');

    // the product: "Add to cart" on the first screen
    await press(firstCard);
    await page.waitForSelector('.product h1');
    const add = page.getByRole('button', { name: 'Add to cart' });
    await expectScreen('product', add);
    await shot('product');
    await press(add);

    // the cart drawer: "Go to checkout"
    const drawer = page.getByTestId('cart-drawer');
    await drawer.waitFor();
    const toCheckout = drawer.getByRole('link', { name: 'Go to checkout' });
    await expectScreen('cart drawer', toCheckout);
    await shot('cart-drawer');
    await press(toCheckout);

    // the checkout as a guest: its first field on the first screen, then the form down to "Place order"
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.waitForSelector('form.checkout[aria-busy="false"]');
    const email = page.getByLabel('Email');
    await expectScreen('checkout', email);
    await email.fill('guest@example.test');
    await page.getByLabel('First name').fill('Anna');
    await page.getByLabel('Last name').fill('Keller');
    await page.getByLabel('Street').fill('Bahnhofstrasse');
    await page.getByLabel('No.').fill('12');
    await page.getByLabel('Postcode').fill('8001');
    await page.getByLabel('City').fill('Zürich');
    const country = page.locator('fieldset.address select[autocomplete="country"]');
    if ((await country.inputValue()) !== 'CH') {
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/checkouts/')), country.selectOption('CH')]);
      await page.waitForSelector('form.checkout[aria-busy="false"]');
    }
    await press(page.getByLabel('Swiss Post'));
    await press(page.getByLabel('Invoice'));
    await press(page.getByLabel(/I accept the terms/));
    await press(page.getByLabel(/at least 18 years/));
    await expectAccessible(page, `${name} checkout filled`);
    await expect(page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).resolves.toBe(true);
    await press(page.getByRole('button', { name: 'Place order' }));

    // the confirmation
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    await page.waitForURL(/\/storefront-demo\/order\?/);
    await expect(page.getByTestId('order-number').textContent()).resolves.toMatch(/^Order \S+/);
    await page.evaluate('window.scrollTo(0, 0)');
    await expectScreen('order confirmation', page.getByRole('heading', { name: 'Thank you for your order' }));
    await shot('order');
    await context.close();
  }

  it('on a 390×844 touch phone a guest goes home → category → filter → product → cart → checkout → confirmation; every page passes axe, fits the width, shows its next action on the first screen', async () => {
    await journey(PHONE, true, 'phone');
  }, 180_000);

  it('on a 1280×800 desktop the same journey, each next action on the first screen', async () => {
    await journey(DESKTOP, false, 'desktop');
  }, 180_000);
});
