import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/**
 * Issue 34: order placement writes its stock movements in one statement, under the variant locks it took, and
 * reports each location's resulting on-hand computed from the level it read under those locks instead of re-reading
 * it. The reported levels must be the ledger's, for an order drawing on two locations and for a backorder going
 * below zero.
 */
describe('order placement: stock movements', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t?.close());

  const place = async (lines: Array<[string, number]>) => {
    const visitor = t.client(shop.storefront_token);
    const c = await checkoutWith(visitor, lines);
    await visitor.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    const res = await visitor.post(`/checkouts/${c.id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true });
    expect(res.status).toBe(200);
    return res.body.checkout.order_id as string;
  };
  /** The inventory_level.updated payloads of one order's movements, by location. */
  const reported = async (orderId: string) => {
    const rows = (await t.db.query(
      `SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = 'inventory_level.updated' AND payload->>'reason' = $2 ORDER BY id`,
      [shop.tenant.id, `order ${orderId}`],
    )) as Array<{ payload: { inventory_level: { inventory_item_id: string; location_id: string; available: number } } }>;
    return rows.map((r) => r.payload.inventory_level);
  };
  const ledger = async (variantId: string) =>
    new Map(
      (
        (await t.db.query(
          `SELECT location_id, sum(delta)::float8 AS on_hand FROM stock_movements WHERE tenant_id = $1 AND variant_id = $2 GROUP BY location_id`,
          [shop.tenant.id, variantId],
        )) as Array<{ location_id: string; on_hand: number }>
      ).map((r) => [r.location_id, r.on_hand]),
    );

  it('an order drawing on two locations: one movement per location, fullest first, each reported at the ledger level', async () => {
    // v-wine: cellar 100, store 20
    const orderId = await place([
      [ids.variants['v-wine'], 105],
      [ids.variants['v-last'], 3],
    ]);
    const movements = (await t.db.query(`SELECT variant_id, location_id, delta::float8 AS delta FROM stock_movements WHERE tenant_id = $1 AND reason = $2`, [
      shop.tenant.id,
      `order ${orderId}`,
    ])) as Array<{ variant_id: string; location_id: string; delta: number }>;
    expect(movements).toHaveLength(3);
    const wine = movements.filter((m) => m.variant_id === ids.variants['v-wine']);
    expect(new Map(wine.map((m) => [m.location_id, m.delta]))).toEqual(
      new Map([
        [ids.locations.cellar, -100],
        [ids.locations.store, -5],
      ]),
    );
    const events = await reported(orderId);
    expect(events).toHaveLength(3);
    for (const variantId of [ids.variants['v-wine'], ids.variants['v-last']]) {
      const levels = await ledger(variantId);
      for (const e of events.filter((x) => x.inventory_item_id === variantId))
        expect([e.location_id, e.available]).toEqual([e.location_id, levels.get(e.location_id)]);
    }
    expect(events.find((e) => e.inventory_item_id === ids.variants['v-wine'] && e.location_id === ids.locations.store)?.available).toBe(15);
  });

  it('a backorder below zero is reported at the ledger level too', async () => {
    // v-back: cellar 1, backorder allowed
    const orderId = await place([[ids.variants['v-back'], 4]]);
    const events = await reported(orderId);
    const levels = await ledger(ids.variants['v-back']);
    expect(events).toEqual([{ inventory_item_id: ids.variants['v-back'], location_id: ids.locations.cellar, available: -3 }]);
    expect(levels.get(ids.locations.cellar)).toBe(-3);
  });
});
