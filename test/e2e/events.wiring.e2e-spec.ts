import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

/** The modules record their domain events in the outbox, in the transaction of the change. */
describe('domain events emitted by the modules', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  const events = async (topic: string): Promise<Array<Record<string, any>>> =>
    (await t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = $2 ORDER BY occurred_at, id`, [shop.tenant.id, topic])).map(
      (r: { payload: Record<string, any> }) => r.payload,
    );

  it('collection.created, collection.updated and collection.deleted carry the collection', async () => {
    const created = (await shop.admin.post('/admin/collections', { title: 'Summer wines' }).expect(201)).body.collection;
    await shop.admin.put(`/admin/collections/${created.id}`, { title: 'Summer reds' }).expect(200);
    await shop.admin.delete(`/admin/collections/${created.id}`).expect(204);
    expect(await events('collection.created')).toEqual([
      { collection: expect.objectContaining({ id: created.id, title: 'Summer wines', handle: 'summer-wines' }) },
    ]);
    expect(await events('collection.updated')).toEqual([{ collection: expect.objectContaining({ id: created.id, title: 'Summer reds' }) }]);
    expect(await events('collection.deleted')).toEqual([{ collection: { id: created.id } }]);
  });

  it('records nothing for a change that failed', async () => {
    await shop.admin.post('/admin/collections', { title: 'A', handle: 'taken' }).expect(201);
    const before = (await events('collection.created')).length;
    await shop.admin.post('/admin/collections', { title: 'B', handle: 'taken' }).expect(422);
    await shop.admin.delete('/admin/collections/00000000-0000-4000-8000-000000000000').expect(404);
    expect(await events('collection.created')).toHaveLength(before);
    expect(await events('collection.deleted')).toHaveLength(1);
  });

  it('theme.published when a theme becomes main', async () => {
    const themes = (await shop.admin.get('/admin/themes').expect(200)).body.themes;
    const main = themes.find((x: { role: string }) => x.role === 'main');
    await shop.admin.put(`/admin/themes/${main.id}`, { role: 'main' }).expect(200);
    expect(await events('theme.published')).toEqual([]);
    const { ThemesService } = await import('../../src/themes/themes.service.js');
    const { RequestContext } = await import('../../src/common/context/request-context.js');
    const copy = await t.get(ThemesService).createFromLibrary(RequestContext.forTenant(shop.tenant.id), 'vineyard', 'Autumn');
    await shop.admin.put(`/admin/themes/${copy.id}`, { role: 'main' }).expect(200);
    expect(await events('theme.published')).toEqual([{ theme: { id: copy.id, name: 'Autumn', role: 'main' } }]);
  });

  it('catalogue.imported with the counts, and inventory_level.updated for stock movements', async () => {
    await shop.admin
      .post('/admin/catalogue/import', {
        locations: [{ key: 'cellar', name: 'Cellar' }],
        products: [{ key: 'p-1', title: 'Merlot', variants: [{ key: 'v-1', price: 20, tax_rate: 8.1, stock: { cellar: 5 } }] }],
      })
      .expect(200);
    expect(await events('catalogue.imported')).toEqual([
      { import: { created: expect.objectContaining({ products: 1, variants: 1 }), updated: expect.any(Object) } },
    ]);
    const { StockService } = await import('../../src/catalogue/stock.service.js');
    const { RequestContext } = await import('../../src/common/context/request-context.js');
    const [v] = await t.db.query(`SELECT id FROM variants WHERE tenant_id = $1`, [shop.tenant.id]);
    const [loc] = await t.db.query(`SELECT id FROM stock_locations WHERE tenant_id = $1`, [shop.tenant.id]);
    await t.get(StockService).recordMovement(RequestContext.forTenant(shop.tenant.id), v.id, loc.id, -2, 'test');
    expect(await events('inventory_level.updated')).toEqual([
      { inventory_level: { inventory_item_id: v.id, location_id: loc.id, available: 3 }, reason: 'test' },
    ]);
  });
});

describe('customer events', () => {
  let t: TestApp;
  let shop: TestShop;
  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  const topics = async () =>
    (await t.db.query(`SELECT topic, payload FROM outbox_events WHERE tenant_id = $1 AND topic LIKE 'customer.%' ORDER BY occurred_at, id`, [
      shop.tenant.id,
    ])) as Array<{ topic: string; payload: Record<string, any> }>;

  it('customer.created for admin creation and registration, customer.updated for admin updates', async () => {
    const created = (await shop.admin.post('/admin/customers', { email: 'ana@example.test' }).expect(201)).body.customer;
    await shop.admin.put(`/admin/customers/${created.id}`, { type: 'corporate' }).expect(200);
    await shop.storefront.post('/customers', { email: 'ben@example.test', password: 'long enough password' }).expect(201);
    await shop.admin.post('/admin/customers', { email: 'ANA@example.test' }).expect(422);
    const rows = await topics();
    expect(rows.map((r) => r.topic)).toEqual(['customer.created', 'customer.updated', 'customer.created']);
    expect(rows[0].payload.customer).toEqual(expect.objectContaining({ id: created.id, email: 'ana@example.test' }));
    expect(rows[1].payload.customer).toEqual(expect.objectContaining({ id: created.id, type: 'corporate' }));
    expect(rows[2].payload.customer).toEqual(expect.objectContaining({ email: 'ben@example.test' }));
  });
});
