import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { dirname, resolve } from 'node:path';
import { ensureBuilt } from '../../bin/build.mjs';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { freePort } from '../helpers/net.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/**
 * Issue 34: WORKERS=2 on the built server (node:cluster). One server for the whole file: a write through one worker
 * is seen by the other within a second (the cache bus, as between two instances), a killed worker is restarted in its
 * slot while the other keeps answering, and SIGTERM stops both workers with every request in flight answered.
 * Which worker answered is read from its request log line (`worker`, matched by the X-Request-Id the test sends).
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const API = '/api/2026-04-01';

interface Answer {
  status: number;
  body: Record<string, unknown>;
  worker: number;
}

describe('operations: WORKERS=2', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let port: number;
  let child: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  let seq = 0;

  const lines = () =>
    output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      });
  const workerPids = () => {
    const pids = new Map<number, number>();
    for (const m of output.matchAll(/worker (\d+) \(pid (\d+)\) starting/g)) pids.set(Number(m[1]), Number(m[2]));
    return pids;
  };
  const listening = () => [...output.matchAll(/listening on .* \(worker (\d+) of 2, pid (\d+)\)/g)].map((m) => Number(m[2]));

  /** One request on a connection of its own (the cluster hands each new connection to the next worker). */
  const call = (method: string, path: string, token: string, body?: unknown): Promise<Answer> => {
    const id = `workers-${process.pid}-${++seq}`;
    return new Promise<{ status: number; body: Record<string, unknown> }>((done, fail) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: API + path,
          method,
          agent: false,
          headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': id, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => done({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
        },
      );
      req.on('error', fail);
      req.end(payload);
    }).then(async (answer) => {
      // the request line is written as the response ends: wait for it briefly
      for (let i = 0; i < 50; i++) {
        const line = lines().find((l) => l.request_id === id);
        if (line) return { ...answer, worker: Number(line.worker) };
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no request line for ${id}: ${output.slice(-2000)}`);
    });
  };
  const title = async () => {
    const res = await call('GET', `/products/${ids.products['p-wine']}`, shop.storefront_token);
    expect(res.status).toBe(200);
    return { worker: res.worker, title: (res.body.product as { title: string }).title };
  };
  const untilBothReady = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output}`);
      if (new Set(listening()).size >= 2 && [...workerPids().values()].every((pid) => listening().includes(pid))) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`both workers not listening after ${ms} ms: ${output}`);
  };

  beforeAll(async () => {
    await ensureBuilt({ root: ROOT, log: () => undefined });
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      RATE_LIMIT: 'off',
      WORKERS: '2',
      DATABASE_URL: t.databaseUrl,
      PORT: String(port),
      SHUTDOWN_GRACE_MS: '20000',
    };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    child = spawn(process.execPath, ['--import', './dist/src/observability/tracing-preload.js', 'dist/src/main.js'], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    exited = new Promise((done) => child.once('exit', (code) => done(code)));
    await untilBothReady(90_000);
  }, 600_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      for (const pid of workerPids().values()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    await t?.close();
  });

  it('a product changed through one worker shows through the other within a second (cache bus)', async () => {
    // both workers have the product cached with its old title
    const seen = new Set<number>();
    for (let i = 0; i < 10 && seen.size < 2; i++) {
      const r = await title();
      expect(r.title).toBe('Merlot 2019');
      seen.add(r.worker);
    }
    expect([...seen].sort()).toEqual([1, 2]);

    const put = await call('PUT', `/admin/products/${ids.products['p-wine']}`, shop.admin.token!, { title: { en: 'Merlot 2020', de: 'Merlot 2020 (de)' } });
    expect(put.status).toBe(200);
    const writtenAt = Date.now();
    let otherSaw: number | null = null;
    while (otherSaw === null && Date.now() - writtenAt < 5_000) {
      const r = await title();
      if (r.worker === put.worker)
        expect(r.title).toBe('Merlot 2020'); // its own write, at once
      else if (r.title === 'Merlot 2020') otherSaw = Date.now() - writtenAt;
    }
    expect(otherSaw).not.toBeNull();
    expect(otherSaw!).toBeLessThan(1_000);
  }, 60_000);

  it('a killed worker is restarted in its slot while the other keeps answering', async () => {
    const before = workerPids();
    const victim = before.get(1)!;
    process.kill(victim, 'SIGKILL');
    // a connection the primary hands out in the instant before it sees the death goes to the dead worker (node:cluster
    // round robin) and hangs: wait until the primary reports the exit, then the other worker answers meanwhile
    const noticedBy = Date.now() + 10_000;
    while (!output.includes(`worker 1 (pid ${victim}) exited`) && Date.now() < noticedBy) await new Promise((r) => setTimeout(r, 20));
    expect(output).toContain(`worker 1 (pid ${victim}) exited`);
    for (let i = 0; i < 4; i++) expect((await title()).worker).toBe(2);
    const restartedBy = Date.now() + 30_000;
    while (workerPids().get(1) === victim && Date.now() < restartedBy) await new Promise((r) => setTimeout(r, 100));
    await untilBothReady(90_000);
    const after = workerPids();
    expect(after.get(1)).not.toBe(victim);
    expect(after.get(2)).toBe(before.get(2));
    expect(output).toMatch(new RegExp(`worker 1 \\(pid ${victim}\\) exited \\(SIGKILL\\): restarting`));
    const seen = new Set<number>();
    for (let i = 0; i < 10 && seen.size < 2; i++) seen.add((await title()).worker);
    expect([...seen].sort()).toEqual([1, 2]);
  }, 120_000);

  it('SIGTERM: both workers stop accepting, finish every completion in flight, and the primary exits 0', async () => {
    const checkouts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const visitor = t.client(shop.storefront_token); // a cart of its own
      const c = await checkoutWith(visitor, [[ids.variants['v-juice'], 1]]);
      await visitor.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
      checkouts.push(c.id);
    }
    const lock = t.db.createQueryRunner();
    const pids = [...workerPids().values()];
    try {
      // hold the checkout rows, so that the completions are in flight on both workers when SIGTERM arrives
      await lock.connect();
      await lock.startTransaction();
      await lock.query(`SELECT id FROM checkouts WHERE id = ANY($1) FOR UPDATE`, [checkouts]);
      const completions = checkouts.map((id) =>
        call('POST', `/checkouts/${id}/complete`, shop.storefront_token, {
          payment_type_id: ids.payment_types.invoice,
          accepted_terms: true,
          age_confirmed: true,
        }),
      );
      const [{ holder }] = (await lock.query(`SELECT pg_backend_pid() AS holder`)) as Array<{ holder: number }>;
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        // the sessions this lock blocks: the four completions, not some other session waiting on a lock of its own
        const [w] = (await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`, [holder])) as Array<{
          n: number;
        }>;
        if (w.n >= 4) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(Date.now()).toBeLessThan(deadline);
      child.kill('SIGTERM');
      const refusedBy = Date.now() + 5_000;
      let refused = false;
      while (!refused && Date.now() < refusedBy) {
        // refused, or accepted by the primary's listening socket and never answered (node:cluster hands a connection
        // that arrives while both workers close to none of them): either way no worker takes new requests. Without a
        // timeout such a connection would hang this loop until the drain's cut, with the completions waiting on the lock.
        refused = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((r) => setTimeout(r, 100));
      }
      expect(refused).toBe(true);
      expect(child.exitCode).toBeNull(); // still finishing the completions
      await lock.commitTransaction();

      // the database's sessions 3 s after the lock ended, if a completion is still running then (for a failure's message)
      const stuck = await Promise.race([
        Promise.allSettled(completions).then(() => null),
        new Promise((r) => setTimeout(r, 3_000)).then(() =>
          t.db.query(
            `SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blockers, left(query, 100) AS query
               FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          ),
        ),
      ]);
      const answers = await Promise.all(completions).catch((err: Error) => {
        throw new Error(`${err.message}: sessions 3 s after the lock ended ${JSON.stringify(stuck)}; ${output.slice(-6000)}`);
      });
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.checkout).toMatchObject({ success: true, order_id: expect.any(String) });
      }
      expect(new Set(answers.map((a) => a.worker)).size).toBe(2); // in flight on both workers
      expect(await exited).toBe(0);
      expect(output).toContain('SIGTERM: stopping 2 worker(s)');
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
      const [orders] = (await t.db.query(`SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1`, [shop.tenant.id])) as Array<{ n: number }>;
      expect(orders.n).toBe(4);
    } finally {
      if (lock.isTransactionActive) await lock.rollbackTransaction().catch(() => undefined);
      if (!lock.isReleased) await lock.release();
    }
  }, 120_000);
});
