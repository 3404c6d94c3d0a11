import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { releaseChromium, screenshot, useChromium } from './storefront-browser.fixture.js';

/**
 * The reference storefront's search box (issue 35; examples/storefront/src/search-box.tsx) in headless Chromium
 * against the demo catalogue: suggestions as you type (debounced, an ARIA combobox driven by the keyboard), the
 * search for a grape, and "did you mean". The first test uses the real API (`GET /search/suggest`, `q` over grapes,
 * `include=suggestions`: the catalogue engine's part of issue 35); the second answers the suggestions from a fixed
 * document, to pin the box's own behaviour (debounce, roles, arrows, Escape, where a choice leads) whatever the
 * engine ranks. Screenshots in test-results/storefront/.
 */
const OUT = join(process.cwd(), 'test-results', 'storefront');
type Doc = {
  products: Array<{ key: string; published?: boolean; variants: Array<{ published?: boolean; active?: boolean; custom_fields?: { grape?: string[] } }> }>;
};

describe('reference storefront: the search box', () => {
  let t: TestApp;
  let shop: TestShop;
  let browser: Browser;
  let base: string;
  let doc: Doc;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, ['examples/storefront/scripts/prepare.mjs', '--browser'], { stdio: ['ignore', 'inherit', 'inherit'] });
    mkdirSync(OUT, { recursive: true });
    t = await createTestApp({ config: { STOREFRONT_DEMO: true } });
    shop = await t.createShop({ name: 'Demo Wine Shop' });
    doc = generateDemoCatalogue(400) as unknown as Doc;
    await shop.admin.post('/admin/catalogue/import', doc).expect(200);
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await useChromium();
  }, 600_000);

  afterAll(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  /** A fresh visitor on the listing; with `clock`, the page's timers are Playwright's (to step through the debounce). */
  async function visitor(clock = false): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === base ? route.continue() : route.abort()));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    if (clock) await page.clock.install();
    await page.goto(`${base}/storefront-demo/wines?token=${shop.storefront_token}`);
    await page.waitForSelector('.card');
    return page;
  }
  const shot = (page: Page, name: string) => screenshot(page, join(OUT, `${name}.png`), true);
  const box = (page: Page) => page.getByRole('combobox', { name: 'Search wines' });
  const listbox = (page: Page) => page.getByRole('listbox', { name: 'Suggestions' });
  /** The listing's "N wines" once it is loaded. */
  async function resultCount(page: Page): Promise<number> {
    await page.waitForSelector('section.results[aria-busy="false"]');
    const status = page.getByTestId('result-count');
    await status.filter({ hasText: /\d/ }).waitFor();
    return Number(/(\d+)/.exec((await status.textContent()) ?? '')![1]);
  }
  /** Brute force over the imported document: the products a shopper can see with a visible variant of this grape. */
  const withGrape = (grape: string) =>
    doc.products.filter(
      (p) => p.published !== false && p.variants.some((v) => v.published !== false && v.active !== false && v.custom_fields?.grape?.includes(grape)),
    ).length;

  it('finds Rieslings: the grape suggested by the real API as "rie" is typed, chosen with the keyboard; "riesling" searched; "chardonay" finds the Chardonnays', async () => {
    const page = await visitor();
    const input = box(page);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await input.pressSequentially('rie', { delay: 40 });
    await listbox(page).waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    expect(await input.getAttribute('aria-controls')).toBe(await listbox(page).getAttribute('id'));
    const grapes = listbox(page).locator('[role="group"][data-kind="grape"]');
    const riesling = grapes.getByRole('option', { name: /^Riesling\b/ });
    await riesling.waitFor();
    const suggested = Number(await riesling.locator('.count').textContent());
    expect(suggested).toBe(withGrape('riesling'));
    await shot(page, 'search-suggestions');
    // arrows down until the Riesling option is the active descendant, then Enter filters the listing by the grape
    const target = await riesling.getAttribute('id');
    for (let i = 0; i < 10 && (await input.getAttribute('aria-activedescendant')) !== target; i += 1) await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(target);
    expect(await riesling.getAttribute('aria-selected')).toBe('true');
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/2026-04-01/products?') && r.url().includes('custom_field_id=')),
      input.press('Enter'),
    ]);
    expect(await resultCount(page)).toBe(suggested);
    expect(await input.getAttribute('aria-expanded')).toBe('false');

    await input.fill('');
    // a plain search for the grape (Enter with no option active)
    await input.pressSequentially('riesling', { delay: 20 });
    await Promise.all([page.waitForURL(/\?q=riesling$/), input.press('Enter')]);
    expect(await resultCount(page)).toBe(withGrape('riesling'));
    await shot(page, 'search-riesling');

    // a misspelling within the typo budget (one edit from 5 letters) finds the Chardonnays at once (the engine's
    // did-you-mean for a search without any match is played in test/e2e/search.storefront.e2e-spec.ts)
    await input.fill('chardonay');
    await Promise.all([page.waitForURL(/\?q=chardonay$/), input.press('Enter')]);
    await shot(page, 'search-typo');
    expect(await resultCount(page)).toBe(withGrape('chardonnay'));
  });

  it('the box itself: one request per pause in typing, ARIA roles, arrows wrap, Escape closes, each kind of choice leads where it should', async () => {
    const [product] = (await t.db.query(`SELECT id, handle FROM products WHERE tenant_id = $1 AND published ORDER BY key LIMIT 1`, [shop.tenant.id])) as Array<{
      id: string;
      handle: string;
    }>;
    const [grape] = (await t.db.query(`SELECT id FROM custom_field_options WHERE tenant_id = $1 AND key = 'riesling'`, [shop.tenant.id])) as Array<{
      id: string;
    }>;
    const answer = {
      data: [
        { kind: 'product', label: 'Products', items: [{ id: product.id, label: 'Riesling Spätlese', count: 1, handle: product.handle }] },
        { kind: 'grape', label: 'Grape', items: [{ id: grape.id, label: 'Riesling', count: 7, filter: { param: 'custom_field:grape', value: grape.id } }] },
      ],
    };
    const page = await visitor(true);
    const asked: string[] = [];
    await page.route('**/api/2026-04-01/search/suggest?**', (route) => {
      asked.push(new URL(route.request().url()).searchParams.get('q')!);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
    });
    const input = box(page);
    // time stands still while typing: no request until 150 ms after the last key, then one
    await page.clock.pauseAt(Date.now() + 60_000);
    await input.pressSequentially('riesl');
    await page.clock.runFor(149);
    expect(asked).toEqual([]);
    await page.clock.runFor(1);
    await page.clock.resume(); // the page's rendering runs on timers too
    await listbox(page).waitFor();
    expect(asked).toEqual(['riesl']);
    await shot(page, 'search-box-suggestions');
    const options = listbox(page).getByRole('option');
    expect(await options.allTextContents()).toEqual(['Riesling Spätlese 1', 'Riesling 7']);
    expect(await listbox(page).getByRole('group').count()).toBe(2);
    expect(await input.getAttribute('aria-activedescendant')).toBeNull();
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await options.nth(0).getAttribute('id'));
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await input.press('ArrowDown'); // wraps to the first
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await input.press('ArrowUp'); // and back to the last
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    await input.press('Escape');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await listbox(page).isHidden()).toBe(true);
    expect(await input.inputValue()).toBe('riesl');
    // ArrowDown reopens it on the first option; Enter opens that product
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    // the product's page by its handle (/wines/<handle>, read by handle), never through its id
    const reads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/2026-04-01/products/')) reads.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await Promise.all([page.waitForURL(new RegExp(`/wines/${product.handle}$`)), input.press('Enter')]);
    await page.waitForSelector('.product h1');
    expect(reads.filter((u) => u.includes(product.id))).toEqual([]);
    expect(reads.some((u) => u.startsWith(`/api/2026-04-01/products/by_handle?handle=${product.handle}&`))).toBe(true);
    // a facet value filters the listing by its option (custom fields through custom_field_id)
    await input.pressSequentially('ries', { delay: 20 });
    await listbox(page).waitFor();
    await Promise.all([
      page.waitForURL(new RegExp(`\\?custom_field_id=${grape.id}$`)),
      listbox(page)
        .getByRole('option', { name: /^Riesling 7$/ })
        .click(),
    ]);
    await page.waitForSelector('section.results[aria-busy="false"]');
    expect(await input.inputValue()).toBe('');
    // fewer than 2 characters asks nothing
    asked.length = 0;
    await input.pressSequentially('r', { delay: 20 });
    await page.waitForTimeout(400);
    expect(asked).toEqual([]);
    await shot(page, 'search-box-mocked');
  });
});
