#!/usr/bin/env node
// The storefront README's pictures (issue 37): phone (390×844) screenshots of the home page, a category, a product
// page and the cart drawer, and desktop ones of the home, category (category-page.png) and product pages, taken with Debian's Chromium through
// playwright-core into docs/ (viewport only, device scale 1: small PNGs). Against a running demo shop:
//   node examples/storefront/scripts/screenshots.mjs 'http://127.0.0.1:3000/storefront-demo/?token=vnstss_…'
// (the URL `npm run shop -- demo` prints). The journey browser test calls `takeScreenshots` on its own demo shop when
// STOREFRONT_DOCS=1 is set.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** `url`: the storefront's address with its `?token=`; `browser`: a playwright-core Chromium. Returns the files written. */
export async function takeScreenshots(browser, url, outDir = DOCS) {
  mkdirSync(outDir, { recursive: true });
  const start = new URL(url);
  const origin = start.origin;
  const root = start.pathname.endsWith('/') ? start.pathname : `${start.pathname}/`;
  const written = [];
  for (const [kind, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ]) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: kind === 'phone', isMobile: kind === 'phone' });
    // only the shop's own origin: nothing fetched from outside hosts
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const shot = async (name) => {
      // desktop: the home, category and product pages (the category as category-page.png, the README's first picture)
      if (kind === 'desktop' && name === 'cart-drawer') return;
      await page.evaluate(() => document.fonts.ready);
      const path = join(outDir, kind === 'desktop' && name === 'category' ? 'category-page.png' : `${kind}-${name}.png`);
      await page.screenshot({ path });
      written.push(path);
    };
    await page.goto(url);
    await page.locator('[data-testid="new-arrivals"] .card img').first().waitFor();
    await shot('home');
    await page.goto(`${origin}${root}categories/red-wine?available=true`);
    await page.waitForSelector('section.results[aria-busy="false"] .card');
    await shot('category');
    await page.locator('section.results .card .card-link').first().click();
    await page.waitForSelector('.product h1');
    await page.locator('.gallery img').first().waitFor();
    await shot('product');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByTestId('cart-drawer').waitFor();
    await page.getByTestId('drawer-free-shipping').waitFor();
    await shot('cart-drawer');
    await context.close();
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.argv[2];
  if (!url) {
    process.stderr.write('usage: node examples/storefront/scripts/screenshots.mjs <storefront URL with ?token=>\n');
    process.exit(2);
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    for (const file of await takeScreenshots(browser, url)) process.stdout.write(`${file}\n`);
  } finally {
    await browser.close();
  }
}
