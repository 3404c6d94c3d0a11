import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { createTestApp, type TestApp, type TestShop } from '../helpers/test-app.js';

/** Headless Chromium as every browser test starts it (Debian's package, no sandbox as root, nothing fetched). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * The Chromium of this module registry: launched by the first browser file that asks, shared by the files of a browser
 * group (test/helpers/e2e-groups.cjs: they run one after another in one registry), each in browser contexts of its own.
 */
let shared: Promise<Browser> | null = null;

/** Chromium for a browser file: the registry's one (launched on first use). Give it back with `releaseChromium`. */
export function useChromium(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return shared;
}

/** Whether this file runs inside an e2e group (test/helpers/e2e-group.ts), whose afterAll closes the shared Chromium. */
const inGroup = () => (globalThis as { __E2E_GROUP_FILES__?: string[] }).__E2E_GROUP_FILES__ !== undefined;

/**
 * A browser file's end: alone, Chromium is closed (as each file did with its own); in a group, every context still
 * open (all of them this file's: the group's files run one after another) is closed, and Chromium stays for the next
 * file, as if it started afresh.
 */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  if (!inGroup()) return closeChromium();
  await Promise.all(browser.contexts().map((c) => c.close()));
}

/** Closes the registry's Chromium (the end of a browser group, or of a file run alone). */
export async function closeChromium(): Promise<void> {
  const browser = shared;
  shared = null;
  await (await browser?.catch(() => null))?.close();
}

/** A demo shop served with the built storefront at `base` (`/storefront-demo/`), and the Chromium that visits it. */
export interface DemoStorefront {
  t: TestApp;
  shop: TestShop;
  browser: Browser;
  base: string;
}

/**
 * The storefront built (`prepare.mjs --browser`), an app with STOREFRONT_DEMO listening on a free port, the shop
 * "Demo Wine Shop" with `products` generated wines, Chromium launched; `out` made for the screenshots.
 */
export async function startDemoStorefront(products: number, out: string): Promise<DemoStorefront> {
  execFileSync(process.execPath, ['examples/storefront/scripts/prepare.mjs', '--browser'], { stdio: ['ignore', 'inherit', 'inherit'] });
  mkdirSync(out, { recursive: true });
  const t = await createTestApp({ config: { STOREFRONT_DEMO: true } });
  const shop = await t.createShop({ name: 'Demo Wine Shop' });
  await shop.admin.post('/admin/catalogue/import', generateDemoCatalogue(products)).expect(200);
  await t.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const browser = await useChromium();
  return { t, shop, browser, base };
}

/**
 * The shop and the page steps of test/e2e/storefront-money.browser.e2e-spec.ts: the demo catalogue (60 products)
 * taxed by destination (zones CH 8.1 %, DE 19 %, AT 20 %, FR 20 % with excise on still wine, NO 25 % and closed to
 * alcohol), DHL priced by bottle count in the European zones.
 */
export function shopDocument() {
  type Rows = Array<Record<string, unknown>>;
  const demo = generateDemoCatalogue(60) as Record<string, unknown> & { products: Array<{ variants: Rows }>; countries: Rows; shipping_methods: Rows };
  return {
    ...demo,
    products: demo.products.map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v, tax_category: 'wine' })) })),
    countries: [...demo.countries, { key: 'NO', code: 'NO', name: { en: 'Norway', de: 'Norwegen' }, shipping: true }],
    tax: {
      mode: 'destination',
      gross_price_policy: 'constant',
      excise_display: 'included',
      categories: [{ key: 'wine', name: 'Wine', excise_class: 'still' }],
      zones: [
        { key: 'CH', name: 'Switzerland', countries: ['CH'] },
        { key: 'DE', name: 'Germany', countries: ['DE'] },
        { key: 'AT', name: 'Austria', countries: ['AT'] },
        { key: 'FR', name: 'France', countries: ['FR'] },
        { key: 'NO', name: 'Norway', countries: ['NO'] },
      ],
      rates: [
        { category: 'wine', zone: 'CH', rate: 8.1 },
        { category: 'wine', zone: 'DE', rate: 19 },
        { category: 'wine', zone: 'AT', rate: 20 },
        { category: 'wine', zone: 'FR', rate: 20, excise_per_hl: 4.1 },
        { category: 'wine', zone: 'NO', rate: 25 },
      ],
    },
    // Europe by bottle count: 1-6 bottles 12.00, 7-12 18.00, then 8.00 per started case of 6
    shipping_methods: demo.shipping_methods.map((m) =>
      m.key === 'dhl'
        ? {
            ...m,
            countries: [],
            rate_table: {
              basis: 'bottles',
              steps: [
                { from: 1, to: 6, price: 12 },
                { from: 7, to: 12, price: 18 },
              ],
              beyond: { every: 6, price: 8 },
            },
            zones: [{ zone: 'DE' }, { zone: 'AT' }, { zone: 'FR' }, { zone: 'NO' }],
          }
        : m,
    ),
    destination_rules: [{ zone: 'NO', alcohol_shipping: false }],
  };
}

/** Home (the shop's name), then its "Shop all wines": the listing of all wines, first page. */
export async function toAllWines(page: Page): Promise<void> {
  await page.locator('.brand').click();
  await page.getByRole('link', { name: 'Shop all wines' }).click();
  await page.waitForSelector('section.results[aria-busy="false"] .card');
}

/** From the listing, opens products until one offers an available 75 cl bottle, selects it and adds `quantity`. */
export async function addBottles(page: Page, quantity: number): Promise<string> {
  await toAllWines(page);
  const cards = page.locator('.card .card-link');
  for (let i = 0; i < 20; i += 1) {
    await cards.nth(i).click();
    await page.waitForSelector('.product h1');
    const option = page.locator('label.variant', { hasText: '75 cl' }).filter({ hasText: 'In stock' });
    if ((await option.count()) > 0) {
      await option.first().click();
      await page.getByLabel('Quantity').fill(String(quantity));
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added to your cart.').waitFor();
      return (await page.locator('.product h1').textContent())!;
    }
    await page.goBack();
    await page.waitForSelector('.card');
  }
  throw new Error('no product with an available 75 cl bottle among the first listed');
}

/** Opens the checkout from the cart. */
export async function toCheckout(page: Page): Promise<void> {
  await page.locator('.cart-link').click();
  await page.getByRole('link', { name: 'Go to checkout' }).click();
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
}

export async function fillAddress(page: Page, email: string, country: string, zip: string, city: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill('Anna');
  await page.getByLabel('Last name').fill('Keller');
  await page.getByLabel('Street').fill('Bahnhofstrasse');
  await page.getByLabel('No.').fill('12');
  await page.getByLabel('Postcode').fill(zip);
  await page.getByLabel('City').fill(city);
  await changeCountry(page, country);
}

/** Picks a shipping method and waits for the totals with its price. */
export async function chooseShipping(page: Page, name: string): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/checkouts/')), page.getByLabel(name).check()]);
  await page.waitForSelector('form.checkout[aria-busy="false"]');
}

/** Picks a country and waits until the checkout came back re-priced. */
export async function changeCountry(page: Page, country: string): Promise<void> {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/checkouts/')),
    page.getByLabel('Country').selectOption(country),
  ]);
  await page.waitForSelector('form.checkout[aria-busy="false"]');
}

/** A node's text with every run of white space (the no-break space of formatted money) as one space. */
export const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** Each tax line as "label amount". */
export const taxLines = (page: Page) =>
  page
    .getByTestId('tax-line')
    .evaluateAll((rows) => rows.map((r) => `${r.querySelector('dt')!.textContent!.trim()} ${r.querySelector('dd')!.textContent!.trim()}`));

/** A page in a fresh browser context that may reach only the app under test at `base` (every other origin aborted). */
export async function sameOriginPage(browser: Browser, base: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === base ? route.continue() : route.abort()));
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/**
 * A screenshot of the page into `file` when `STOREFRONT_SCREENSHOTS=on`, else nothing: nothing in the tests reads them,
 * and some forty full-page PNGs cost Chromium CPU in every `npm test` (README "Development and tests").
 */
export async function screenshot(page: Page, file: string, fullPage = true): Promise<void> {
  if (process.env.STOREFRONT_SCREENSHOTS === 'on') await page.screenshot({ path: file, fullPage });
}
