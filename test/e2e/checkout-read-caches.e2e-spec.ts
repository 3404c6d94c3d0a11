import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { CHECKOUT_BALANCES_CACHE_TOPIC } from '../../src/gift-cards/balance-payments.service.js';
import { DESTINATION_RULES_CACHE_TOPIC, ShippingQuotes } from '../../src/shipping/shipping-quotes.service.js';
import { TAX_SETTINGS_CACHE_TOPIC, TaxService } from '../../src/tax/tax.service.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

const TOPICS = [TAX_SETTINGS_CACHE_TOPIC, DESTINATION_RULES_CACHE_TOPIC, CHECKOUT_BALANCES_CACHE_TOPIC];
const STATEMENTS = { tax_settings: /FROM tax_settings/, destination_rules: /FROM destination_rules/, balances: /FROM checkout_balance_accounts/ };

/**
 * Issue 31, the checkout read: a shop's tax settings, destination rules and whether any of its checkouts has a gift
 * card or store credit applied are reused per instance, and every write (the API, or plain SQL through the tables'
 * triggers) is seen at once.
 */
describe('checkout read: per-tenant caches of tax settings, destination rules and applied balances', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let bus: CacheBus;
  const echoes: Array<string | null> = [];

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
    bus = t.get(CacheBus);
    for (const topic of TOPICS) bus.subscribe(topic, (id, message) => void (message && echoes.push(id)));
  });
  afterAll(() => t.close());

  /** Once a marker comes back on every topic, every notification committed before has been heard. */
  const settle = async () => {
    const marker = `settled-${echoes.length}-${Date.now()}`;
    for (const topic of TOPICS) await bus.publish(topic, marker);
    await until('earlier notifications came back', async () => echoes.filter((x) => x === marker).length === TOPICS.length, 5_000);
  };
  /** The statements on each table a piece of work ran on the default manager. */
  const statements = async (work: () => Promise<unknown>) => {
    const spy = jest.spyOn(t.db.manager, 'query');
    try {
      await work();
      const sql = spy.mock.calls.map((c) => String(c[0]));
      return Object.fromEntries(Object.entries(STATEMENTS).map(([k, re]) => [k, sql.filter((s) => re.test(s)).length]));
    } finally {
      spy.mockRestore();
    }
  };
  const ready = async (client: ShopClient) => {
    const c = await checkoutWith(client, [[ids.variants['v-wine'], 1]]);
    await client.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    return c.id as string;
  };
  const ctx = () => RequestContext.forTenant(shop.tenant.id);
  const noAddress = { country: null, region: null, postcode: null };
  const verdict = () =>
    t.get(ShippingQuotes).judge(
      ctx(),
      noAddress,
      async () => [],
      async () => 0,
    );
  /** Runs `work` with the table's notifying trigger off: only this instance's own drop can make the change seen. */
  const silenced = async <T>(table: string, work: () => Promise<T>): Promise<T> => {
    await t.db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_read_notify`);
    try {
      return await work();
    } finally {
      await t.db.query(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_read_notify`);
    }
  };

  it('a second read of a shop without these features runs none of the three statements', async () => {
    const client = t.client(shop.storefront_token);
    const token = await ready(client);
    await settle();
    // after a drop, one read asks the database once each (the spy sees the statements)
    for (const topic of TOPICS) await bus.publish(topic, shop.tenant.id);
    expect(await statements(() => client.get(`/checkouts/${token}`).expect(200))).toEqual({ tax_settings: 1, destination_rules: 1, balances: 1 });
    await settle();
    const second = await statements(() => client.get(`/checkouts/${token}`).expect(200));
    expect(second).toEqual({ tax_settings: 0, destination_rules: 0, balances: 0 });
    // inside a transaction nothing is reused: what the transaction wrote is what it reads
    await t.db.transaction(async (m) => {
      await m.query(`INSERT INTO tax_settings (tenant_id, mode) VALUES ($1, 'destination')`, [shop.tenant.id]);
      expect((await t.get(TaxService).rules(ctx().withManager(m)))?.settings.mode).toBe('destination');
      await m.query(`DELETE FROM tax_settings WHERE tenant_id = $1`, [shop.tenant.id]);
    });
  });

  it('tax settings and destination rules changed by plain SQL are heard within a second', async () => {
    const taxes = t.get(TaxService);
    await settle();
    expect(await taxes.rules(ctx())).toBeNull();
    expect(await verdict()).toBeNull();
    await t.db.query(`INSERT INTO tax_settings (tenant_id, mode) VALUES ($1, 'destination')`, [shop.tenant.id]);
    await until('the tax settings are heard', async () => (await taxes.rules(ctx()))?.settings.mode === 'destination');
    await t.db.query(`UPDATE tax_settings SET mode = 'origin' WHERE tenant_id = $1`, [shop.tenant.id]);
    await until('the change back is heard', async () => (await taxes.rules(ctx())) === null);
    await t.db.query(`DELETE FROM tax_settings WHERE tenant_id = $1`, [shop.tenant.id]);
    await t.db.query(`INSERT INTO destination_rules (tenant_id, key) VALUES ($1, 'nowhere')`, [shop.tenant.id]);
    await until('the new rule is heard', async () => (await verdict()) !== null);
    await t.db.query(`DELETE FROM destination_rules WHERE tenant_id = $1`, [shop.tenant.id]);
    await until('the deletion is heard', async () => (await verdict()) === null);
  });

  it('an admin write is seen by the next read of the writing instance without waiting for the notification', async () => {
    const taxes = t.get(TaxService);
    await settle();
    expect(await taxes.rules(ctx())).toBeNull();
    await silenced('tax_settings', () => shop.admin.put('/admin/tax_settings', { mode: 'destination' }).expect(200));
    expect((await taxes.rules(ctx()))?.settings.mode).toBe('destination');
    await silenced('tax_settings', () => shop.admin.put('/admin/tax_settings', { mode: 'origin' }).expect(200));
    expect(await taxes.rules(ctx())).toBeNull();

    await shop.admin.post('/admin/tax_zones', { name: 'Alps', key: 'alps', countries: ['CH'] }).expect(201);
    const zone = 'alps';
    expect(await verdict()).toBeNull();
    const rule = await silenced(
      'destination_rules',
      async () => (await shop.admin.post('/admin/destination_rules', { zone }).expect(201)).body.destination_rule,
    );
    expect(await verdict()).not.toBeNull();
    await silenced('destination_rules', () => shop.admin.delete(`/admin/destination_rules/${rule.id}`).expect(204));
    expect(await verdict()).toBeNull();
  });

  it('a gift card applied through the API or by plain SQL shows on the next read', async () => {
    const client = t.client(shop.storefront_token);
    const token = await ready(client);
    await settle();
    expect((await client.get(`/checkouts/${token}`).expect(200)).body.checkout.gift_cards).toBeUndefined();
    const card = (await shop.admin.post('/admin/gift_cards', { initial_value: 5 }).expect(201)).body.gift_card;
    // this instance drops its own copy when it applies a card
    const applied = await silenced('checkout_balance_accounts', () => client.post(`/checkouts/${token}/gift_cards`, { code: card.code }).expect(200));
    expect(applied.body.checkout.gift_cards).toEqual([expect.objectContaining({ id: card.id, amount: 5 })]);
    expect((await client.get(`/checkouts/${token}`).expect(200)).body.checkout.gift_cards).toHaveLength(1);

    // another shop's card applied by plain SQL: the trigger's notification
    const other = await t.createShop();
    const otherIds = await importShop(other.admin);
    const otherClient = t.client(other.storefront_token);
    const c = await checkoutWith(otherClient, [[otherIds.variants['v-wine'], 1]]);
    await otherClient.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: otherIds.shipping_methods.post }).expect(200);
    const otherCard = (await other.admin.post('/admin/gift_cards', { initial_value: 3 }).expect(201)).body.gift_card;
    await settle();
    expect((await otherClient.get(`/checkouts/${c.id}`).expect(200)).body.checkout.gift_cards).toBeUndefined();
    await t.db.query(`INSERT INTO checkout_balance_accounts (tenant_id, checkout_id, account_id) VALUES ($1, $2, $3)`, [other.tenant.id, c.id, otherCard.id]);
    await until('the applied card is heard', async () => (await otherClient.get(`/checkouts/${c.id}`)).body.checkout.gift_cards?.length === 1);
  });
});
