import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Server } from 'node:http';
import type { QueryRunner } from 'typeorm';
import { CatalogueImportService } from '../../src/catalogue/import/catalogue-import.service.js';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import { CatalogueExportService } from '../../src/catalogue/export/catalogue-export.service.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { raw } from './themes.helpers.js';

const POOL = 4;
const PRODUCTS = 1_000;

/** A client that reads the status line of its answer and then stops reading (the socket stays open, paused). */
interface SlowReader {
  status: number;
  headers: string;
  socket: net.Socket;
  closed: Promise<void>;
}

async function slowReader(t: TestApp, path: string, token?: string): Promise<SlowReader> {
  const server = t.server as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1')));
    socket.once('close', () => reject(new Error(`closed before any answer to ${path}`)));
  });
  socket.pause();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.split('\r\n\r\n')[0], socket, closed };
}

/** Sessions of the service's pool that sit in an open transaction. */
const idleInTransaction = async (t: TestApp): Promise<number> =>
  Number(
    (
      await t.db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vinoshop' AND state LIKE 'idle in transaction%'`,
      )
    )[0].n,
  );

describe('slow readers, export limits and the pool (issue 30)', () => {
  let t: TestApp;
  let big: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        DATABASE_POOL_SIZE: POOL,
        DATABASE_ACQUIRE_TIMEOUT_MS: 1_000,
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 45_000,
        EXPORT_CONCURRENCY_PER_TENANT: POOL + 1,
      },
    });
    big = await t.createShop();
    other = await t.createShop();
    // each export is about 10 MB, more than the sockets' buffers hold (about 4 MB on loopback)
    const doc = generateDemoCatalogue(PRODUCTS) as { products: Array<{ body_html: string }> };
    for (const p of doc.products) p.body_html += `<p>${'Tasting notes. '.repeat(600)}</p>`;
    await t.get(CatalogueImportService).import(RequestContext.forTenant(big.tenant.id), doc);
  }, 120_000);
  afterAll(() => t.close());

  it('the service sessions carry idle_in_transaction_session_timeout', async () => {
    const rows: Array<{ idle_in_transaction_session_timeout: string }> = await t.db.query('SHOW idle_in_transaction_session_timeout');
    expect(rows[0].idle_in_transaction_session_timeout).toBe('45s');
  });

  it('exports whose clients stop reading hold no connection: every shop still answers, and one export more is 429', async () => {
    const exporter = t.get(CatalogueExportService);
    exporter.stallMs = 120_000;
    const paths = ['json', 'ndjson', 'json', 'ndjson', 'json'].map((f) => `${API}/admin/catalogue/export?format=${f}`);
    expect(paths.length).toBeGreaterThan(POOL);
    // one after the other: a concurrent snapshot read needs a connection of its own (the pool is only POOL)
    const readers: SlowReader[] = [];
    for (const path of paths) readers.push(await slowReader(t, path, big.admin_token));
    try {
      for (const r of readers) expect(r.status).toBe(200);
      // each answer is still being sent: far larger than what the sockets' buffers took
      expect(exporter.slots.runningFor(big.tenant.id)).toBe(paths.length);

      // one more than EXPORT_CONCURRENCY_PER_TENANT: 429 with Retry-After, while another shop may still export
      const refused = await big.admin.get('/admin/catalogue/export').expect(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toEqual({ errors: expect.stringContaining('EXPORT_CONCURRENCY_PER_TENANT'), code: 'export_concurrency_limit' });
      await other.admin.get('/admin/catalogue/export').expect(200);

      // more stalled readers than the pool has connections, and yet every request that needs the database answers
      await other.admin.get('/admin/products').expect(200);
      await big.admin.get('/admin/products?limit=5').expect(200);
      await other.storefront.get('/products').expect(200);
      // a held transaction stays; a background job's momentary one between two statements passes (CI saw one)
      expect(
        await waitFor(
          () => idleInTransaction(t),
          (n) => n === 0,
          5_000,
        ),
      ).toBe(0);
    } finally {
      for (const r of readers) r.socket.destroy();
    }
    await waitFor(
      () => exporter.slots.runningFor(big.tenant.id),
      (n) => n === 0,
    );
    expect(exporter.slots.runningFor(big.tenant.id)).toBe(0);
  }, 120_000);

  it('an export whose client reads nothing for EXPORT_STALL_TIMEOUT_MS is aborted and gives its slot back', async () => {
    const exporter = t.get(CatalogueExportService);
    exporter.stallMs = 1_000;
    const reader = await slowReader(t, `${API}/admin/catalogue/export?format=ndjson`, big.admin_token);
    expect(reader.status).toBe(200);
    // the server gives up on it (the paused client cannot see the close until it reads again)
    const running = await waitFor(
      () => exporter.slots.runningFor(big.tenant.id),
      (n) => n === 0,
      20_000,
    );
    expect(running).toBe(0);
    let received = 0;
    reader.socket.on('data', (c: Buffer) => (received += c.length));
    reader.socket.resume();
    await reader.closed;
    exporter.stallMs = 120_000;
    const whole = await big.admin
      .get('/admin/catalogue/export?format=ndjson')
      .buffer(true)
      .parse((r, cb) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (body += c));
        r.on('end', () => cb(null, body));
      })
      .expect(200);
    const lines = (whole.body as string).trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{"products":'))).toHaveLength(PRODUCTS);
    expect(Buffer.byteLength(whole.body as string)).toBeGreaterThan(8 * 1024 * 1024);
    // the aborted answer ended short of the document
    expect(received).toBeLessThan(Buffer.byteLength(whole.body as string));
  }, 60_000);

  it('theme assets streamed to clients that stop reading hold no connection either', async () => {
    const themes = (await big.admin.get('/admin/themes').expect(200)).body.themes as Array<{ id: string; role: string }>;
    const themeId = themes.find((x) => x.role === 'main')!.id;
    const bytes = randomBytes(12 * 1024 * 1024);
    const put = await raw(t, 'PUT', `${API}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent('assets/big.bin')}`, {
      headers: { Authorization: `Bearer ${big.admin_token}`, 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(200);
    const readers: SlowReader[] = [];
    for (let i = 0; i <= POOL; i++) readers.push(await slowReader(t, `/storefront/themes/${themeId}/assets/assets/big.bin`));
    for (let i = 0; i <= POOL; i++) readers.push(await slowReader(t, `${API}/admin/themes/${themeId}/assets/data?key=assets%2Fbig.bin`, big.admin_token));
    for (const r of readers) expect(r.status).toBe(200);
    await other.admin.get('/admin/products').expect(200);
    await other.storefront.get('/products').expect(200);
    expect(
      await waitFor(
        () => idleInTransaction(t),
        (n) => n === 0,
        5_000,
      ),
    ).toBe(0);
    for (const r of readers) r.socket.destroy();
  }, 60_000);

  it('a request that cannot get a pool connection within DATABASE_ACQUIRE_TIMEOUT_MS answers 503 with Retry-After, never hangs', async () => {
    // a token never used yet: its lookup needs the database too, and must answer 503 like the request, never 401
    const minted = await other.admin.post('/admin/access_tokens', { label: 'fresh', tier: 'admin', scopes: ['Shop/collections/read'] }).expect(201);
    const fresh = t.client(minted.body.access_token.token as string);
    const held: QueryRunner[] = [];
    try {
      // take every connection of the pool (the same pool the requests use)
      for (let i = 0; i < POOL; i++) {
        const runner = t.db.createQueryRunner();
        await runner.connect();
        held.push(runner);
      }
      const started = Date.now();
      const res = await other.admin.get('/admin/collections').expect(503);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body).toEqual({ errors: expect.stringContaining('busy'), request_id: expect.any(String) });
      const unseen = await fresh.get('/admin/collections').expect(503);
      expect(unseen.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      for (const r of held) await r.release();
    }
    await waitFor(
      async () => (await other.admin.get('/admin/collections')).status,
      (s) => s === 200,
    );
    await other.admin.get('/admin/collections').expect(200);
  }, 30_000);
});
