/**
 * Read replicas and the catalogue engine (issue 14): product JSON is read on a replica only once the replica has
 * replayed the WAL up to the product's last change as the index knows it (the build's snapshot, or the statement
 * that re-read a changed product), else on the primary; a replica connection is taken only when SQL runs.
 *
 * The "replica" here is the test database itself (so its rows are right) with a replay position set by the test:
 * the health check would find it is not a standby, so it runs once at start and the test sets the state it wants.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createShopApp } from '../../src/app.js';
import { CatalogueIndexService } from '../../src/catalogue-search/index.js';
import { ReadReplicas } from '../../src/database/read-replicas.js';
import { loadConfig } from '../../src/config/app-config.js';
import { parseLsn, replicaMayServe } from '../../src/database/lsn.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { fixtureImport } from './catalogue.fixture.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WAL positions and the replica rule', () => {
  it('parses pg_lsn text into ordered numbers', () => {
    expect(parseLsn('0/0')).toBe(0);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748);
    expect(parseLsn('1/0')).toBe(2 ** 32);
    expect(parseLsn('2A/FFFFFFFF')).toBe(0x2a * 2 ** 32 + 0xffffffff);
    expect(parseLsn('1/0')).toBeGreaterThan(parseLsn('0/FFFFFFFF'));
    expect(parseLsn(null)).toBe(0);
  });

  it('a replica serves a row only once it has replayed the row’s change', () => {
    expect(replicaMayServe(100, 100)).toBe(true);
    expect(replicaMayServe(101, 100)).toBe(true);
    expect(replicaMayServe(99, 100)).toBe(false);
    expect(replicaMayServe(null, 100)).toBe(false); // replay position unknown
    expect(replicaMayServe(0, 0)).toBe(false); // never measured
    expect(replicaMayServe(100, null)).toBe(false); // change position unknown (index not loaded)
  });
});

describe('product JSON on a replica by LSN', () => {
  let t: TestApp;
  let b: NestExpressApplication;
  let shop: TestShop;
  let replicas: ReadReplicas;
  let state: { healthy: boolean; replayLsn: number; error: string | null };

  beforeAll(async () => {
    t = await createTestApp();
    const cfg = loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      RATE_LIMIT: 'off',
      DATABASE_REPLICA_URLS: t.databaseUrl,
      REPLICA_CHECK_MS: '3600000',
    });
    b = await createShopApp({ config: cfg, databaseUrl: t.databaseUrl });
    shop = await t.createShop();
    expect((await shop.admin.post('/admin/catalogue/import', fixtureImport())).status).toBe(200);
    replicas = b.get(ReadReplicas);
    // the first check found the database is no standby; from here the test plays the replica's health and replay position
    state = (replicas as unknown as { states: Array<typeof state> }).states[0];
    expect(state.healthy).toBe(false);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const get = (path: string) =>
    request(b.getHttpServer())
      .get(API + path)
      .set('Authorization', `Bearer ${shop.storefront_token}`);
  const currentLsn = async () => parseLsn((await t.get(DataSource).query(`SELECT pg_current_wal_insert_lsn()::text AS l`))[0].l);

  it('records the build snapshot’s position, and a changed product’s own later one', async () => {
    const index = b.get(CatalogueIndexService);
    const before = await currentLsn();
    const list = await get('/products?limit=50');
    expect(list.status).toBe(200);
    const ids: string[] = list.body.products.map((p: { id: string }) => p.id);
    const built = index.changeLsn(shop.tenant.id, ids)!;
    expect(built).toBeGreaterThanOrEqual(before);
    expect(built).toBeLessThanOrEqual(await currentLsn());
    // a product change through the other instance: this instance re-reads it from the primary with that statement's position
    const res = await shop.admin.put(`/admin/products/${ids[0]}`, { title: { en: 'Renamed for the LSN test' } });
    expect(res.status).toBe(200);
    for (let i = 0; i < 200 && index.changeLsn(shop.tenant.id, [ids[0]])! <= built; i++) await sleep(10);
    const changed = index.changeLsn(shop.tenant.id, [ids[0]])!;
    expect(changed).toBeGreaterThan(built);
    expect(index.changeLsn(shop.tenant.id, [ids[1]])).toBe(built); // the others keep the build's position
    expect(index.changeLsn('00000000-0000-4000-8000-000000000000', [ids[0]])).toBeNull(); // no index: unknown
  });

  it('reads a product on the replica only when its replay position has reached the product’s change', async () => {
    const list = await get('/products?limit=50');
    const ids: string[] = list.body.products.map((p: { id: string }) => p.id);
    const index = b.get(CatalogueIndexService);
    const needed = index.changeLsn(shop.tenant.id, [ids[5]])!;

    // a healthy replica that has not replayed the build yet: the fill of a product's JSON reads the primary
    state.healthy = true;
    state.error = null;
    state.replayLsn = needed - 1;
    let used = replicas.stats.replica;
    let res = await get(`/products/${ids[5]}`);
    expect(res.status).toBe(200);
    expect(replicas.stats.replica).toBe(used); // the replica connection was never taken

    // once it has replayed it, the next fill (another product) reads the replica
    state.replayLsn = (await currentLsn()) + 1;
    used = replicas.stats.replica;
    res = await get(`/products/${ids[6]}`);
    expect(res.status).toBe(200);
    expect(replicas.stats.replica).toBe(used + 1);

    // an answer from memory (cached JSON, the index) takes no replica connection at all
    used = replicas.stats.replica;
    res = await get(`/products/${ids[6]}`);
    expect(res.status).toBe(200);
    expect(replicas.stats.replica).toBe(used);
    state.healthy = false;
  });
});
