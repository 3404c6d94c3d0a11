import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { CHECKOUT_OPTIONS_CACHE_TOPIC, ShippingQuotes } from '../../src/shipping/index.js';
import { TaxService } from '../../src/tax/tax.service.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { statementsDuring } from '../helpers/statements.js';
import { until } from '../helpers/wait.js';
import { CH_ADDRESS, Ids, importShop } from './checkout.fixture.js';

/** The reference rows the checkout reuses (issue 34). */
const OPTIONS = /FROM (shipping_methods|payment_types|countries)\b/;

/** Every statement of the process's `pg` clients while `work` runs, background polls left out (test/helpers/statements.ts). */
const counted = statementsDuring;

/** The statement log of one order, one line per statement (`STATEMENT_LOG=1` prints it). */
function log(steps: Record<string, string[]>): string {
  return Object.entries(steps)
    .flatMap(([k, ss]) => ss.map((s) => `${k}: ${s.slice(0, 160)}`))
    .join('\n');
}

/**
 * Issue 34: the statements of one guest order (add to cart → POST /checkouts → PUT address and shipping → PUT
 * payment → complete), and the checkout's per-tenant reuse of shipping methods, payment types and shipping
 * countries, dropped by any write (plain SQL through the tables' triggers, the admin API at once).
 */
describe('checkout: statements per order and the reused checkout options (issue 34)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin, { wine: 1000 });
  });
  afterAll(() => t.close());

  const order = async () => {
    const client = t.client(shop.storefront_token);
    const steps: Record<string, string[]> = {};
    steps.add = await counted(() => client.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: 1 }).expect(200));
    let id = '';
    steps.create = await counted(async () => (id = (await client.post('/checkouts').expect(200)).body.checkout.id));
    steps.address = await counted(() =>
      client.put(`/checkouts/${id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200),
    );
    steps.payment = await counted(() => client.put(`/checkouts/${id}`, { payment_type_id: ids.payment_types.invoice }).expect(200));
    steps.complete = await counted(() =>
      client.post(`/checkouts/${id}/complete`, { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true }).expect(200),
    );
    return steps;
  };
  const ready = async () => {
    const client = t.client(shop.storefront_token);
    await client.post('/cart/items', { article_id: ids.variants['v-wine'], quantity: 1 }).expect(200);
    const id = (await client.post('/checkouts').expect(200)).body.checkout.id as string;
    await client.put(`/checkouts/${id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    return async () => (await client.get(`/checkouts/${id}`).expect(200)).body.checkout;
  };

  it('a second order reads no shipping method, payment type or country (the figure is printed)', async () => {
    await order();
    const steps = await order();
    const counts = Object.fromEntries(Object.entries(steps).map(([k, s]) => [k, s.length]));
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    process.stdout.write(`statements per order: ${total} ${JSON.stringify(counts)}\n`);
    if (process.env.STATEMENT_LOG) process.stdout.write(`${log(steps)}\n`);
    expect(
      Object.values(steps)
        .flat()
        .filter((s) => OPTIONS.test(s)),
    ).toEqual([]);
    expect(total).toBeGreaterThan(10); // the counter saw the order
    expect(total).toBeLessThanOrEqual(15); // issue 34: 65 at the start of the second round, 48 at the third's, 28 at the fourth's, 17 at the fifth's
  });

  // each cost removed by issue 34's second round, pinned on its own, then the whole order (65 statements before it)
  it('the placement reads the applied gift cards and store credit once', async () => {
    const { complete } = await order();
    // by the checkout's lock (issue 34: no statement of its own)
    expect(complete.filter((s) => /FROM checkout_balance_accounts\b/.test(s))).toEqual([expect.stringMatching(/^SELECT c\.\*, .* FOR UPDATE OF c$/)]);
  });

  it('POST /checkouts reads the cart row once (the API guard’s read), and the placement empties the cart in one statement', async () => {
    const { create, complete } = await order();
    expect(create.filter((s) => /\bFROM carts\b/.test(s))).toHaveLength(1);
    // the emptying only: the complete answers in the checkout's currency, so its guard reads no cart (issue 34)
    expect(complete.filter((s) => /\b(carts|cart_items)\b/.test(s))).toHaveLength(1);
  });

  it('a checkout is not read back after it is written: POST answers from the inserted row, PUT reads it once and updates it', async () => {
    const { create, address, payment } = await order();
    const reads = (sql: string[]) => sql.filter((s) => /^SELECT .* FROM "?checkouts"? /.test(s));
    expect(reads(create)).toEqual([]);
    // nor its lines: the create answers from the lines it inserted and the catalogue rows the cart's pricing read
    // (with the cart's lines, in one statement)
    expect(create.filter((s) => /FROM checkout_lines\b/.test(s))).toEqual([]);
    expect(create.filter((s) => /FROM variants v\b/.test(s))).toEqual([expect.stringMatching(/^WITH items AS \(SELECT .* FROM cart_items ci /)]);
    for (const put of [address, payment]) {
      // the row, its lines and their catalogue rows in one read (issue 34)
      expect(reads(put)).toEqual([expect.stringMatching(/xmin::text AS row_version, .* FROM checkouts c /)]);
      expect(put.filter((s) => /FROM variants v\b/.test(s))).toEqual(reads(put));
      expect(put.filter((s) => /^UPDATE "?checkouts"? /.test(s))).toEqual([expect.stringMatching(/RETURNING updated_at$/)]);
    }
  });

  it('the placement writes the order with what priced its shipping and taxes, and does not update it after', async () => {
    const { complete } = await order();
    expect(complete.filter((s) => /\b(INSERT INTO|UPDATE) orders\b/.test(s))).toEqual([expect.stringMatching(/INSERT INTO orders .*shipping_rate\)/)]);
    const [o] = await t.db.query(`SELECT shipping_method_id, shipping_rate FROM orders WHERE tenant_id = $1 ORDER BY number DESC LIMIT 1`, [shop.tenant.id]);
    expect(o.shipping_method_id).toBe(ids.shipping_methods.post);
    expect(o.shipping_rate).toMatchObject({ source: 'flat' });
  });

  it('the placement writes its events (and their deliveries, none without a subscription) in one statement', async () => {
    const [{ since }] = await t.db.query(`SELECT clock_timestamp() AS since`);
    const { complete } = await order();
    const outbox = complete.filter((s) => /\b(outbox_events|webhook_deliveries|event_handler_jobs)\b/.test(s));
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatch(/INSERT INTO outbox_events .*INSERT INTO webhook_deliveries/);
    // the stock level changed, the order placed, the checkout completed: the order's events, in the order emitted
    const topics = await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND occurred_at >= $2 ORDER BY occurred_at, id`, [
      shop.tenant.id,
      since,
    ]);
    expect(topics.map((r: { topic: string }) => r.topic)).toEqual(['inventory_level.updated', 'order.placed', 'checkout.completed']);
  });

  it('plain SQL changes to payment types and countries are heard within a second', async () => {
    const read = await ready();
    const before = await read();
    expect(before.available_countries.map((c: { code: string }) => c.code)).toContain('DE');
    await t.db.query(`UPDATE payment_types SET name = '{"en": "Bill"}'::jsonb WHERE tenant_id = $1 AND key = 'invoice'`, [shop.tenant.id]);
    await until('the renamed payment type is heard', async () =>
      (await read()).payment_types.some((p: { id: string; name: string }) => p.id === ids.payment_types.invoice && p.name === 'Bill'),
    );
    await t.db.query(`UPDATE countries SET shipping = false WHERE tenant_id = $1 AND code = 'DE'`, [shop.tenant.id]);
    await until('the country no longer shipped to is heard', async () => (await read()).available_countries.every((c: { code: string }) => c.code !== 'DE'));
    await t.db.query(`UPDATE countries SET shipping = true WHERE tenant_id = $1 AND code = 'DE'`, [shop.tenant.id]);
    await until('the change back is heard', async () => (await read()).available_countries.some((c: { code: string }) => c.code === 'DE'));
  });

  it('a shipping method written through the admin API is offered by the writer’s next read, without the trigger', async () => {
    const read = await ready();
    const offered = async () => (await read()).shipping_options.map((o: { name: string }) => o.name) as string[];
    expect(await offered()).not.toContain('Bike courier');
    // the message the trigger would send is what other instances wait for; this instance drops its copy at once
    let heard = 0;
    t.get(CacheBus).subscribe(CHECKOUT_OPTIONS_CACHE_TOPIC, () => (heard += 1));
    await t.db.query(`ALTER TABLE shipping_methods DISABLE TRIGGER shipping_methods_read_notify`);
    try {
      const created = await shop.admin.post('/admin/shipping_methods', { name: 'Bike courier', price: 12, countries: ['CH'] }).expect(201);
      expect(heard).toBeGreaterThan(0);
      expect(await offered()).toContain('Bike courier');
      await shop.admin.delete(`/admin/shipping_methods/${created.body.shipping_method.id}`).expect(204);
      expect(await offered()).not.toContain('Bike courier');
    } finally {
      await t.db.query(`ALTER TABLE shipping_methods ENABLE TRIGGER shipping_methods_read_notify`);
    }
  });

  it('inside the checkout’s transactions the tax settings and destination rules come from the per-tenant copies', async () => {
    const ctx = RequestContext.forTenant(shop.tenant.id);
    const taxes = t.get(TaxService);
    const quotes = t.get(ShippingQuotes);
    const noAddress = { country: null, region: null, postcode: null };
    const judge = (c: RequestContext, reuseInTransaction: boolean) =>
      quotes.judge(
        c,
        noAddress,
        async () => [],
        async () => 0,
        { reuseInTransaction },
      );
    const reads = (sql: string[]) => sql.filter((s) => /FROM (tax_settings|destination_rules)\b/.test(s)).length;
    await t.db.transaction(async (m) => {
      const tx = ctx.withManager(m);
      // outside the transaction's reuse: read on its own connection every time
      expect(reads(await counted(async () => (await taxes.rules(tx), await judge(tx, false))))).toBe(2);
      await taxes.rules(ctx); // fills the copies
      await judge(ctx, false);
      expect(reads(await counted(async () => (await taxes.rules(tx, { reuseInTransaction: true }), await judge(tx, true))))).toBe(0);
    });
  });
});
