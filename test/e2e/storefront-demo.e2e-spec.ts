import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../helpers/test-app.js';

/** STOREFRONT_DEMO: the API serving a static single-page build at /storefront-demo/ (README: Reference storefront). */
describe('storefront demo serving (STOREFRONT_DEMO, STOREFRONT_DEMO_DIR)', () => {
  const build = mkdtempSync(join(tmpdir(), 'storefront-demo-'));
  const empty = mkdtempSync(join(tmpdir(), 'storefront-demo-empty-'));
  let on: TestApp;
  beforeAll(async () => {
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'index.html'), '<!doctype html><title>demo</title><div id="root"></div>');
    writeFileSync(join(build, 'assets', 'index-abc123.js'), 'console.log(1)');
    on = await createTestApp({ config: { STOREFRONT_DEMO: true, STOREFRONT_DEMO_DIR: build } });
  });
  afterAll(async () => {
    await on?.close();
    rmSync(build, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('serves index.html at /storefront-demo/ (never cached) and redirects the bare path there', async () => {
    const page = await on.http().get('/storefront-demo/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.text).toContain('<div id="root">');
    await on.http().get('/storefront-demo').expect(301).expect('Location', '/storefront-demo/');
  });

  it('answers the app’s own routes with index.html, so deep links and the payment return URL work', async () => {
    for (const path of [
      '/storefront-demo/products/5a0e0a52-0000-4000-8000-000000000000',
      '/storefront-demo/order?order_id=x&hash=y',
      '/storefront-demo/account/sign-in',
    ]) {
      const r = await on.http().get(path).expect(200);
      expect(r.text).toContain('<div id="root">');
    }
  });

  it('serves hashed assets cached for good, and a missing asset is a 404 envelope, not the app', async () => {
    const asset = await on.http().get('/storefront-demo/assets/index-abc123.js').expect(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await on.http().get('/storefront-demo/assets/nope.js').expect(404);
    expect(missing.body).toEqual({ errors: expect.any(String) });
  });

  it('leaves the API as it is', async () => {
    await on.http().get('/health').expect(200);
    await on.http().post('/storefront-demo/').expect(404);
  });

  it('is off by default (a 404 naming STOREFRONT_DEMO=on), and on without a build says how to build it (503)', async () => {
    const off = await createTestApp();
    try {
      for (const path of ['/storefront-demo/', '/storefront-demo', '/storefront-demo/products/x', '/storefront-demo/assets/app.js']) {
        const r = await off.http().get(path).expect(404);
        expect(r.body).toEqual({ errors: expect.stringContaining('STOREFRONT_DEMO=on') });
      }
      // the rest of the not-found answers stay as they were
      expect((await off.http().get('/storefront-demo-not').expect(404)).body).toEqual({ errors: 'not found' });
    } finally {
      await off.close();
    }
    const unbuilt = await createTestApp({ config: { STOREFRONT_DEMO: true, STOREFRONT_DEMO_DIR: empty } });
    try {
      const r = await unbuilt.http().get('/storefront-demo/').expect(503);
      expect(r.body.errors).toContain('npm run storefront:build');
    } finally {
      await unbuilt.close();
    }
  });
});
