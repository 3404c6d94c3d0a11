import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/** CONTRACT 5 under parallel load: coupon, last bottles, double complete, idempotent retries, adjusts, numbering. */
describe('checkout concurrency (CONTRACT 5)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const visitor = (): ShopClient => t.client(shop.storefront_token);
  const body = () => ({ payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true });

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin, { lastStock: 10 });
  });
  afterAll(() => t.close());

  /** `n` visitors, each with a ready checkout (address and shipping chosen). */
  async function readyCheckouts(n: number, lines: Array<[string, number]>, code?: string): Promise<Array<{ client: ShopClient; id: string }>> {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const client = visitor();
        const c = await checkoutWith(client, lines, { code });
        await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
        return { client, id: c.id };
      }),
    );
  }

  it('50 checkouts complete at once with one single-use code: one redemption, 49 discount_code_already_used', async () => {
    const code = (await shop.admin.post('/admin/discount_codes', { code: 'RACE50', type: 'value', value: 3 }).expect(201)).body.discount_code;
    const checkouts = await readyCheckouts(50, [[ids.variants['v-juice'], 1]], 'RACE50');
    const results = await Promise.all(checkouts.map((c) => c.client.post(`/checkouts/${c.id}/complete`, body())));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 422);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.body.code).toBe('discount_code_already_used');
    const used = await t.db.query(`SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1 AND discount_code = 'RACE50'`, [shop.tenant.id]);
    expect(used[0].n).toBe(1);
    const after = (await shop.admin.get(`/admin/discount_codes/${code.id}`).expect(200)).body.discount_code;
    expect(after.is_used).toBe(true);
  }, 180_000); // 50 and 30 whole checkouts at once: minutes on a loaded 2-core CI machine, not seconds

  it('30 checkouts race for the last 10 bottles: exactly 10 orders, stock 0, never negative', async () => {
    const checkouts = await readyCheckouts(30, [[ids.variants['v-last'], 1]]);
    const results = await Promise.all(checkouts.map((c) => c.client.post(`/checkouts/${c.id}/complete`, body())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect([r.status, r.body.code]).toEqual([422, 'insufficient_stock']);
    const level = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-last']}`).expect(200);
    expect(level.body.inventory_levels).toEqual([{ inventory_item_id: ids.variants['v-last'], location_id: ids.locations.cellar, available: 0 }]);
    const min = await t.db.query(
      `SELECT min(running)::float AS low FROM (SELECT sum(delta) OVER (ORDER BY id) AS running FROM stock_movements WHERE tenant_id = $1 AND variant_id = $2) s`,
      [shop.tenant.id, ids.variants['v-last']],
    );
    expect(min[0].low).toBeGreaterThanOrEqual(0);
    const product = (await visitor().get(`/products/${ids.products['p-last']}`).expect(200)).body.product;
    expect(product.variants[0]).toMatchObject({ available: false, inventory_quantity: 0 });
  }, 180_000); // 50 and 30 whole checkouts at once: minutes on a loaded 2-core CI machine, not seconds

  it('the same checkout completed 10 times at once: one order, nine 409', async () => {
    const [c] = await readyCheckouts(1, [[ids.variants['v-wine'], 1]]);
    const results = await Promise.all(Array.from({ length: 10 }, () => c.client.post(`/checkouts/${c.id}/complete`, body())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const orders = await t.db.query(`SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1 AND checkout_id = $2`, [shop.tenant.id, c.id]);
    expect(orders[0].n).toBe(1);
  });

  it('the same complete retried 5 times at once with one Idempotency-Key: one order, every answer the same', async () => {
    const [c] = await readyCheckouts(1, [[ids.variants['v-wine'], 2]]);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => c.client.post(`/checkouts/${c.id}/complete`).set('Idempotency-Key', key).send(body())));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(results[0].body);
    }
    expect(results[0].body.checkout).toMatchObject({ success: true, order_id: expect.any(String) });
    const orders = await t.db.query(`SELECT id FROM orders WHERE tenant_id = $1 AND checkout_id = $2`, [shop.tenant.id, c.id]);
    expect(orders.map((o: { id: string }) => o.id)).toEqual([results[0].body.checkout.order_id]);
  });

  it('100 concurrent adjusts lose nothing: the final level is the start plus the sum', async () => {
    const item = ids.variants['v-wine'];
    const location = ids.locations.store;
    const start = (
      await shop.admin.post('/admin/inventory_levels/adjust', { inventory_item_id: item, location_id: location, available_adjustment: 0 }).expect(200)
    ).body.inventory_level.available;
    const deltas = Array.from({ length: 100 }, (_, i) => (i % 4 === 0 ? -1 : 2));
    const results = await Promise.all(
      deltas.map((d) => shop.admin.post('/admin/inventory_levels/adjust', { inventory_item_id: item, location_id: location, available_adjustment: d })),
    );
    for (const r of results) expect(r.status).toBe(200);
    const sum = deltas.reduce((a, b) => a + b, 0);
    // the adjust serialized last answered the final level
    expect(results.map((r) => r.body.inventory_level.available)).toContain(start + sum);
    const level = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${item}&location_ids=${location}`).expect(200);
    expect(level.body.inventory_levels).toEqual([{ inventory_item_id: item, location_id: location, available: start + sum }]);
  });

  it('order numbers are unique and gapless across every placement and rollback above', async () => {
    const rows: Array<{ number: string }> = await t.db.query(`SELECT number FROM orders WHERE tenant_id = $1 ORDER BY number`, [shop.tenant.id]);
    const numbers = rows.map((r) => Number(r.number));
    // 1 coupon winner + 10 bottles + 1 double complete + 1 idempotent complete
    expect(numbers).toHaveLength(13);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const counter = await t.db.query(`SELECT last_number::int AS n FROM order_counters WHERE tenant_id = $1`, [shop.tenant.id]);
    expect(counter[0].n).toBe(13);
  });
});
