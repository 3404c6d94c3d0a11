import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { MAX_PREPARED, prepared, preparedNameOf, setPreparedStatements } from '../../src/database/prepared-statements.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, Ids, importShop } from './checkout.fixture.js';

/** A statement as the app's pool clients hand it to pg: its text and, when sent as a prepared statement, its name. */
interface Sent {
  text: string;
  name?: string;
}

/** Every statement pg's clients are given while `work` runs. */
async function sentDuring(work: () => Promise<unknown>): Promise<Sent[]> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  const sent: Sent[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string };
    if (typeof q === 'string') sent.push({ text: q });
    else if (typeof q?.text === 'string') sent.push({ text: q.text, name: q.name });
    return original.apply(this, args);
  };
  try {
    await work();
    return sent;
  } finally {
    proto.query = original;
  }
}

describe('prepared statements: the order flow parsed and planned once per connection (issue 34)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin, { wine: 1000 });
  });
  afterAll(() => t.close());

  async function order(): Promise<void> {
    const client = t.client(shop.storefront_token);
    await client.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: 1 }).expect(200);
    const id = (await client.post('/checkouts').expect(200)).body.checkout.id as string;
    await client.put(`/checkouts/${id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    await client.put(`/checkouts/${id}`, { payment_type_id: ids.payment_types.invoice }).expect(200);
    await client.post(`/checkouts/${id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }).expect(200);
  }

  it("sends each of the flow's repeated statements under one name, order after order", async () => {
    const sent = await sentDuring(async () => {
      await order();
      await order();
    });
    const named = (re: RegExp) => sent.filter((s) => re.test(s.text));
    for (const re of [
      /^WITH rule AS/, // the add to cart
      /^\s*WITH c AS \(\s*INSERT INTO checkouts/, // POST /checkouts
      /xmin::text AS row_version/, // each PUT's read
      /^UPDATE checkouts SET email/, // each PUT's write
      /FOR UPDATE OF c$/, // complete: the checkout locked
      /^SELECT id, sku, allow_backorder, track_inventory FROM variants/, // the variants locked
      /^\s*WITH mv AS/, // the movements and availability
      /^\s*WITH n AS \(\s*INSERT INTO order_counters/, // the placement
    ]) {
      const s = named(re);
      expect(s.length).toBeGreaterThanOrEqual(2);
      expect(s[0].name).toMatch(/^vs\d+$/);
      expect(new Set(s.map((x) => x.name)).size).toBe(1);
    }
    // statements not marked go unnamed, as before
    expect(sent.filter((s) => /^(START TRANSACTION|COMMIT)/.test(s.text)).every((s) => s.name === undefined)).toBe(true);
  });

  it('a marked statement whose result columns changed (a migration adding a column) runs unnamed from then on', async () => {
    const qr = t.db.createQueryRunner();
    try {
      await qr.query(`CREATE TABLE prepared_probe (id int PRIMARY KEY)`);
      await qr.query(`INSERT INTO prepared_probe VALUES (1)`);
      const outside = prepared(`SELECT p.* FROM prepared_probe p WHERE p.id = $1`);
      expect(await qr.query(outside, [1])).toEqual([{ id: 1 }]);
      await qr.query(`ALTER TABLE prepared_probe ADD COLUMN note text`);
      // outside a transaction the refused call is repeated at once, unnamed
      expect(await qr.query(outside, [1])).toEqual([{ id: 1, note: null }]);

      const inside = prepared(`SELECT p.*, 2 AS two FROM prepared_probe p WHERE p.id = $1`);
      expect(await qr.query(inside, [1])).toEqual([{ id: 1, note: null, two: 2 }]);
      await qr.query(`ALTER TABLE prepared_probe ADD COLUMN note2 text`);
      await qr.startTransaction();
      // inside one, the transaction fails as on any error (its earlier statements cannot be repeated)...
      await expect(qr.query(inside, [1])).rejects.toThrow(/cached plan must not change result type/);
      await qr.rollbackTransaction();
      // ...and the statement runs unnamed on that connection afterwards
      expect(await qr.query(inside, [1])).toEqual([{ id: 1, note: null, note2: null, two: 2 }]);
    } finally {
      await qr.query(`DROP TABLE IF EXISTS prepared_probe`);
      await qr.release();
    }
  });

  it(`marks at most ${MAX_PREPARED} texts (later ones run unnamed); off forgets them and marks none`, async () => {
    const text = (i: number) => `SELECT $1::int + ${i} AS probe`;
    for (let i = 0; i < MAX_PREPARED + 5; i++) prepared(text(i));
    expect(preparedNameOf(text(MAX_PREPARED + 4))).toBeUndefined();
    // an unmarked text still answers (unnamed)
    expect(await t.db.query(prepared(text(MAX_PREPARED + 4)), [1])).toEqual([{ probe: MAX_PREPARED + 5 }]);
    try {
      setPreparedStatements(false);
      expect(preparedNameOf(text(0))).toBeUndefined();
      prepared(`SELECT $1::int AS off_probe`);
      expect(preparedNameOf(`SELECT $1::int AS off_probe`)).toBeUndefined();
    } finally {
      setPreparedStatements(true);
    }
    // on again: marked under a name never used before (the pool's connections still hold the earlier ones)
    prepared(`SELECT $1::int AS on_probe`);
    expect(preparedNameOf(`SELECT $1::int AS on_probe`)).toMatch(/^vs\d+$/);
    expect(Number(preparedNameOf(`SELECT $1::int AS on_probe`)!.slice(2))).toBeGreaterThan(MAX_PREPARED);
    expect(await t.db.query(prepared(`SELECT $1::int AS on_probe`), [7])).toEqual([{ on_probe: 7 }]);
    // and the flow still runs with its statements marked afresh
    await order();
  });
});
