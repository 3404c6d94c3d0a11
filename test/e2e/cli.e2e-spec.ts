import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import passport from 'passport';
import type { Strategy } from 'passport';
import { BearerStrategy } from '../../src/auth/bearer.strategy.js';
import { runCli } from '../../src/cli/cli.js';
import { API, createTestApp, TestApp } from '../helpers/test-app.js';
import { importShop } from './checkout.fixture.js';
import { placeOrder } from './orders.fixture.js';
import { freePort } from '../helpers/net.js';

/** Runs the CLI in-process against this file's database; returns stdout lines, stderr lines and the exit code. */
async function cli(t: TestApp, ...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) }, { config: t.config, databaseUrl: t.databaseUrl });
  // passport's strategy registry is process-wide: give the HTTP app its own strategy back after the CLI's context
  passport.use('bearer', t.get(BearerStrategy) as unknown as Strategy);
  return { code, out, err };
}

describe('CLI (CONTRACT 2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let tenantId: string;

  it('tenant create --json prints exactly one JSON object with the tenant, owner and both tokens', async () => {
    const r = await cli(t, 'tenant', 'create', '--name', 'Cave Müller', '--domain', 'cave.example.test', '--json');
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const body = JSON.parse(r.out[0]);
    expect(body).toEqual({
      tenant: { id: expect.any(String), handle: 'cave-muller' },
      owner: { id: expect.any(String), email: expect.any(String) },
      admin_token: expect.stringMatching(/^vnstat_[A-Za-z0-9]{32,}$/),
      storefront_token: expect.stringMatching(/^vnstss_[A-Za-z0-9]{32,}$/),
    });
    tenantId = body.tenant.id;
    // the tokens work over HTTP
    await t.client(body.admin_token).get('/admin/access_tokens').expect(200);
    await t.client(body.storefront_token).get('/currencies').expect(200);
  });

  it('refuses a duplicate handle', async () => {
    const r = await cli(t, 'tenant', 'create', '--name', 'Cave Muller', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out[0])).toEqual({ errors: expect.stringContaining('cave-muller') });
  });

  it('staff create, staff permissions and token mint print their JSON shapes, and permissions take effect at the next request', async () => {
    const created = await cli(
      t,
      'staff',
      'create',
      '--tenant',
      tenantId,
      '--email',
      'Ana@Example.test',
      '--permissions',
      'Shop/access_tokens/read,Shop/themes/read',
      '--json',
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out[0])).toEqual({
      staff: { id: expect.any(String), email: 'ana@example.test', permissions: ['Shop/access_tokens/read', 'Shop/themes/read'] },
    });

    const minted = await cli(
      t,
      'token',
      'mint',
      '--tenant',
      'cave-muller',
      '--staff-email',
      'ana@example.test',
      '--tier',
      'admin',
      '--label',
      'Ana',
      '--scopes',
      'Shop/access_tokens/read',
      '--json',
    );
    expect(minted.code).toBe(0);
    const token = JSON.parse(minted.out[0]);
    expect(token).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^vnstat_/),
      prefix: 'vnstat',
      label: 'Ana',
      scopes: 'Shop/access_tokens/read',
    });
    await t.client(token.token).get('/admin/access_tokens').expect(200);

    const changed = await cli(t, 'staff', 'permissions', '--tenant', tenantId, '--email', 'ana@example.test', '--set', 'Shop/themes/read', '--json');
    expect(JSON.parse(changed.out[0])).toEqual({ staff: { id: expect.any(String), email: 'ana@example.test', permissions: ['Shop/themes/read'] } });
    await t.client(token.token).get('/admin/access_tokens').expect(403);
  });

  it('mints storefront tokens', async () => {
    const r = await cli(
      t,
      'token',
      'mint',
      '--tenant',
      tenantId,
      '--staff-email',
      'ana@example.test',
      '--tier',
      'storefront',
      '--label',
      'SPA',
      '--scopes',
      'storefront/catalogue',
      '--json',
    );
    const token = JSON.parse(r.out[0]);
    expect(token.prefix).toBe('vnstss');
    await t.client(token.token).get('/currencies').expect(200);
  });

  it('theme create adds an unpublished copy of a library theme', async () => {
    const r = await cli(t, 'theme', 'create', '--tenant', tenantId, '--from', 'vineyard', '--name', 'Autumn', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0])).toEqual({
      theme: expect.objectContaining({ id: expect.any(String), name: 'Autumn', role: 'unpublished', theme_key: 'vineyard' }),
    });
    const bad = await cli(t, 'theme', 'create', '--tenant', tenantId, '--from', 'nope', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out[0]).errors).toContain('vineyard');
  });

  it('catalogue import reads a file and prints the import report', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'shop-import-')), 'catalogue.json');
    writeFileSync(
      file,
      JSON.stringify({
        manufacturers: [{ key: 'm-1', name: 'Domaine Example' }],
        products: [{ key: 'p-1', title: 'Merlot 2019', manufacturer: 'm-1', variants: [{ key: 'v-1', sku: 'MER-19', price: 24.9, tax_rate: 8.1 }] }],
      }),
    );
    const r = await cli(t, 'catalogue', 'import', '--tenant', tenantId, file, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out[0]).import;
    expect(report.created).toEqual(expect.objectContaining({ products: 1, variants: 1, manufacturers: 1 }));
    expect(report.ids.products['p-1']).toEqual(expect.any(String));
    const again = JSON.parse((await cli(t, 'catalogue', 'import', '--tenant', tenantId, file, '--json')).out[0]).import;
    expect(again.created.products).toBe(0);
    expect(again.updated.products).toBe(0);
    writeFileSync(file, JSON.stringify({ products: [{ key: 'p-2', variants: [{ key: 'v-2', price: 'cheap' }] }] }));
    const bad = await cli(t, 'catalogue', 'import', '--tenant', tenantId, file, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out[0]).errors).toContain('products[0]');
  });

  it("catalogue import reads an .ndjson file (the export's NDJSON form) line by line", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'shop-import-')), 'catalogue.ndjson');
    const lines = [
      { manufacturers: [{ key: 'm-n', name: 'Domaine Ligne' }] },
      { products: [{ key: 'p-n1', title: 'Line One', manufacturer: 'm-n', variants: [{ key: 'v-n1', price: 12 }] }] },
      { products: [{ key: 'p-n2', title: 'Line Two', variants: [{ key: 'v-n2', price: 14 }] }] },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await cli(t, 'catalogue', 'import', '--tenant', tenantId, file, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0]).import.created).toEqual(expect.objectContaining({ products: 2, variants: 2, manufacturers: 1 }));
    writeFileSync(file, `${JSON.stringify(lines[1])}\n{"products": [{"key": "p-n3", "title": "x", "variants": [{"key": "v-n3", "price": "cheap"}]}]}\n`);
    const bad = await cli(t, 'catalogue', 'import', '--tenant', tenantId, file, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out[0]).errors).toBe('products[1].variants[0].price must be a number (line 2)');
  });

  it('demo creates (then reuses) the demo shop with a generated catalogue and prints its tokens', async () => {
    const first = await cli(t, 'demo', '--products', '40', '--json');
    expect(first.code).toBe(0);
    const body = JSON.parse(first.out[0]);
    expect(body).toEqual(
      expect.objectContaining({
        tenant: { id: expect.any(String), handle: 'demo' },
        admin_token: expect.stringMatching(/^vnstat_/),
        storefront_token: expect.stringMatching(/^vnstss_/),
      }),
    );
    expect(body.import.created.products).toBe(40);
    // the reference storefront's address, with the public token that names the shop
    expect(body.storefront_demo_url).toBe(`http://${t.config.HOST}:${t.config.PORT}/storefront-demo/?token=${body.storefront_token}`);
    const products = await t.client(body.storefront_token).get('/products?limit=5').expect(200);
    expect(products.body.products.length).toBeGreaterThan(0);
    const second = JSON.parse((await cli(t, 'demo', '--products', '40', '--json')).out[0]);
    expect(second.tenant.id).toBe(body.tenant.id);
    expect(second.import.created.products).toBe(0);
    const text = await cli(t, 'demo', '--products', '40');
    expect(text.out.join('\n')).toMatch(/storefront demo: http:\/\/\S+\/storefront-demo\/\?token=vnstss_\w+/);
    await t.client(second.admin_token).get('/admin/access_tokens').expect(200);
  });

  it('demo prints the storefront URL for --port (the running server), and a WELCOME10 code to try (issue 37)', async () => {
    const body = JSON.parse((await cli(t, 'demo', '--products', '5', '--port', '4123', '--json')).out[0]);
    expect(body.storefront_demo_url).toBe(`http://${t.config.HOST}:4123/storefront-demo/?token=${body.storefront_token}`);
    expect(body.discount_code).toBe('WELCOME10');
    const text = (await cli(t, 'demo', '--products', '5', '--port', '4124')).out.join('\n');
    expect(text).toContain(`:4124/storefront-demo/?token=`);
    expect(text).toContain('discount code: WELCOME10');
    // created once: a rerun keeps the one code, 10 % off and reusable
    const codes = (await t.client(body.admin_token).get('/admin/discount_codes?limit=250').expect(200)).body.discount_codes;
    const welcome = codes.filter((c: { code: string }) => c.code === 'WELCOME10');
    expect(welcome).toEqual([expect.objectContaining({ type: 'percent', value: 10, is_infinite: true, is_active: true })]);
    const bad = await cli(t, 'demo', '--port', 'eighty', '--json');
    expect([bad.code, JSON.parse(bad.out[0]).errors]).toEqual([1, '--port must be an integer from 1 to 65535']);
  });

  it('gift-cards issue prints a new card with its code, once (issue 33)', async () => {
    const shop = await t.createShop();
    const res = await cli(t, 'gift-cards', 'issue', '--tenant', shop.tenant.handle, '--value', '25', '--note', 'raffle', '--json');
    expect(res.code).toBe(0);
    const { gift_card: card } = JSON.parse(res.out[0]);
    expect(card).toMatchObject({
      currency: 'CHF',
      initial_value: 25,
      balance: 25,
      note: 'raffle',
      code: expect.stringMatching(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/),
    });
    const seen = await shop.storefront.post('/gift_cards/balance', { code: card.code }).expect(200);
    expect(seen.body.gift_card.balance).toBe(25);
    const bad = await cli(t, 'gift-cards', 'issue', '--tenant', shop.tenant.id, '--value', '0', '--json');
    expect([bad.code, JSON.parse(bad.out[0]).errors]).toEqual([1, expect.stringContaining('--value')]);
  });

  it('orders list prints the newest orders of a shop (issue 17)', async () => {
    const shop = await t.createShop();
    const ids = await importShop(shop.admin);
    const p = await placeOrder(t, shop, ids, [[ids.variants['v-juice'], 1]], { email: 'cli@example.test' });
    const res = await cli(t, 'orders', 'list', '--tenant', shop.tenant.handle, '--json');
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    expect(JSON.parse(res.out[0])).toEqual({
      orders: [
        {
          id: p.order_id,
          number: p.order_number,
          created_at: expect.any(String),
          email: 'cli@example.test',
          total: expect.any(Number),
          currency: 'CHF',
          status: 'Open',
          financial_status: 'pending',
          fulfillment_status: 'unfulfilled',
        },
      ],
    });
    const text = await cli(t, 'orders', 'list', '--tenant', shop.tenant.id);
    expect(text.out[0]).toContain(`#${p.order_number}`);
    expect(JSON.parse((await cli(t, 'orders', 'list', '--tenant', shop.tenant.id, '--financial-status', 'paid', '--json')).out[0])).toEqual({ orders: [] });
    const bad = await cli(t, 'orders', 'list', '--json');
    expect([bad.code, JSON.parse(bad.out[0]).errors]).toEqual([1, expect.stringContaining('--tenant')]);
  });

  it('reports bad input as an error envelope with a non-zero exit code', async () => {
    const bad = await cli(t, 'staff', 'create', '--tenant', tenantId, '--email', 'x@example.test', '--permissions', 'Shop/nothing/read', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out[0]).errors).toContain('Shop/nothing/read');
    const unknown = await cli(t, 'staff', 'create', '--tenant', 'no-such-shop', '--email', 'x@example.test', '--json');
    expect(JSON.parse(unknown.out[0]).errors).toContain('no-such-shop');
    const usage = await cli(t, 'frobnicate', '--json');
    expect(usage.code).toBe(2);
    expect(usage.out).toHaveLength(1);
  });

  it('runs as a real process through bin/shop.js with --json on stdout only', () => {
    const r = spawnSync('node', ['bin/shop.js', 'tenant', 'create', '--name', 'Spawned Shop', '--json'], {
      // every statement over 1 ms logs a `slow query` warning: on stderr, never among the answer on stdout
      env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'warn', SLOW_QUERY_MS: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('slow query');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).tenant.handle).toBe('spawned-shop');
  });

  it('refuses to start with an invalid configuration, naming the variable', () => {
    const r = spawnSync('node', ['bin/shop.js', 'tenant', 'create', '--name', 'x'], {
      env: { ...process.env, DATABASE_URL: t.databaseUrl, RATE_LIMIT_BURST: 'lots' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('RATE_LIMIT_BURST');
  });

  it('serves what the CLI created', async () => {
    const res = await t.http().get(`${API}/currencies`).set('Host', 'cave.example.test').expect(200);
    expect(res.body.currencies[0].code).toBe('CHF');
  });
});

describe('the server process (npm start)', () => {
  // bin/shop.js above has built dist/ when the sources were newer; this file runs its tests in order
  it('starts on an embedded PostgreSQL under DATA_DIR, serves, and shuts down cleanly on SIGTERM, keeping its data', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, existsSync, rmSync, chmodSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'shop-start-'));
    chmodSync(dataDir, 0o755);
    const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    try {
      for (let round = 0; round < 2; round++) {
        const port = await freePort();
        const child = spawn('node', ['dist/src/main.js'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d: Buffer) => (output += d.toString()));
        child.stderr.on('data', (d: Buffer) => (output += d.toString()));
        const deadline = Date.now() + 60_000;
        let ready = false;
        while (!ready && Date.now() < deadline) {
          try {
            const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
            ready = res.status === 200;
          } catch {
            await new Promise((r) => setTimeout(r, 250));
          }
        }
        expect({ ready, output: ready ? '' : output }).toEqual({ ready: true, output: '' });
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(output).toContain('shutting down');
        expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
