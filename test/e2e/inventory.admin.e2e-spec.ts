import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

/** SPEC "Admin: inventory levels" over the stock ledger; CONTRACT 5 (no lost adjust) is in checkout.concurrency. */
function inventoryImport() {
  const variant = (key: string, extra: Record<string, unknown> = {}) => ({ key, sku: key.toUpperCase(), title: key, price: 20, tax_rate: 8.1, ...extra });
  return {
    locations: [
      { key: 'cellar', name: 'Main cellar' },
      { key: 'shop', name: 'Shop floor' },
      { key: 'empty', name: 'Empty store' },
    ],
    products: [
      { key: 'p-a', title: 'Alpha', published: true, variants: [variant('v-a', { stock: { cellar: 12, shop: 3 } })] },
      { key: 'p-b', title: 'Bravo', published: true, variants: [variant('v-b', { stock: { cellar: 0 } })] },
      { key: 'p-c', title: 'Charlie', published: true, variants: [variant('v-c')] },
    ],
  };
}

describe('admin inventory levels', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let otherIds: { variants: Record<string, string> };
  let ids: { variants: Record<string, string>; locations: Record<string, string>; products: Record<string, string> };

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    const res = await shop.admin.post('/admin/catalogue/import', inventoryImport()).expect(200);
    ids = res.body.import.ids;
    otherIds = (await other.admin.post('/admin/catalogue/import', inventoryImport()).expect(200)).body.import.ids;
  });
  afterAll(() => t.close());

  const level = (item: string, loc: string, available: number) => ({ inventory_item_id: item, location_id: loc, available });

  it('lists one row per stocked pair, not padded per requested id', async () => {
    const q = [ids.variants['v-a'], ids.variants['v-b'], ids.variants['v-c']].join(',');
    const res = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${q}`).expect(200);
    expect(Object.keys(res.body)).toEqual(['inventory_levels']);
    const rows = res.body.inventory_levels as Array<{ inventory_item_id: string; location_id: string; available: number }>;
    const expected = [level(ids.variants['v-a'], ids.locations.cellar, 12), level(ids.variants['v-a'], ids.locations.shop, 3)];
    // v-b imported with stock 0: a pair is stocked once it has movements; an import of 0 writes none
    expect(rows.filter((r) => r.inventory_item_id !== ids.variants['v-b'])).toEqual(expect.arrayContaining(expected));
    expect(rows.filter((r) => r.inventory_item_id === ids.variants['v-a'])).toHaveLength(2);
    expect(rows.some((r) => r.inventory_item_id === ids.variants['v-c'])).toBe(false);
  });

  it('narrows by location_ids and drops unparseable ids silently', async () => {
    const res = await shop.admin
      .get(`/admin/inventory_levels?inventory_item_ids=nope,${ids.variants['v-a']},12&location_ids=${ids.locations.shop},bad`)
      .expect(200);
    expect(res.body.inventory_levels).toEqual([level(ids.variants['v-a'], ids.locations.shop, 3)]);
  });

  it.each([
    ['missing', ''],
    ['empty', '?inventory_item_ids='],
    ['only unparseable ids', '?inventory_item_ids=a,b,12'],
    ['over the cap of 250', `?inventory_item_ids=${Array.from({ length: 251 }, () => randomUUID()).join(',')}`],
  ])('422 when inventory_item_ids is %s', async (_name, qs) => {
    const res = await shop.admin.get(`/admin/inventory_levels${qs}`).expect(422);
    expect(typeof res.body.errors).toBe('string');
  });

  it('accepts exactly 250 ids', async () => {
    const list = [ids.variants['v-a'], ...Array.from({ length: 249 }, () => randomUUID())].join(',');
    const res = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${list}`).expect(200);
    expect(res.body.inventory_levels).toHaveLength(2);
  });

  it('set writes the absolute level and the storefront follows at once', async () => {
    const item = ids.variants['v-c'];
    const before = await shop.storefront.get(`/products/${ids.products['p-c']}`).expect(200);
    // tracked, no backorder, nothing on hand: not available
    expect(before.body.product.variants[0]).toMatchObject({ available: false, inventory_quantity: 0 });
    const res = await shop.admin.post('/admin/inventory_levels/set', { inventory_item_id: item, location_id: ids.locations.cellar, available: 7 }).expect(200);
    expect(res.body).toEqual({ inventory_level: level(item, ids.locations.cellar, 7) });
    const after = await shop.storefront.get(`/products/${ids.products['p-c']}`).expect(200);
    expect(after.body.product.variants[0]).toMatchObject({ available: true, inventory_quantity: 7 });
    const again = await shop.admin
      .post('/admin/inventory_levels/set', { inventory_item_id: item, location_id: ids.locations.cellar, available: 0 })
      .expect(200);
    expect(again.body.inventory_level.available).toBe(0);
    const sold = await shop.storefront.get(`/products/${ids.products['p-c']}`).expect(200);
    expect(sold.body.product.variants[0]).toMatchObject({ available: false, inventory_quantity: 0 });
    const list = await shop.storefront.get('/products?available=true').expect(200);
    expect(list.body.products.map((p: { id: string }) => p.id)).not.toContain(ids.products['p-c']);
  });

  it('adjust adds a delta and returns the resulting level; the ledger sums every location', async () => {
    const item = ids.variants['v-a'];
    const res = await shop.admin
      .post('/admin/inventory_levels/adjust', { inventory_item_id: item, location_id: ids.locations.shop, available_adjustment: -2 })
      .expect(200);
    expect(res.body).toEqual({ inventory_level: level(item, ids.locations.shop, 1) });
    const up = await shop.admin
      .post('/admin/inventory_levels/adjust', { inventory_item_id: item, location_id: ids.locations.empty, available_adjustment: 2.5 })
      .expect(200);
    expect(up.body.inventory_level).toEqual(level(item, ids.locations.empty, 2.5));
    const product = await shop.storefront.get(`/products/${ids.products['p-a']}`).expect(200);
    expect(product.body.product.variants[0].inventory_quantity).toBe(12 + 1 + 2.5);
    const rows = (await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${item}`).expect(200)).body.inventory_levels;
    expect(rows).toHaveLength(3);
  });

  it('404 for an unknown or foreign item or location', async () => {
    const foreignItem = otherIds.variants['v-a'];
    for (const body of [
      { inventory_item_id: randomUUID(), location_id: ids.locations.cellar, available: 1 },
      { inventory_item_id: ids.variants['v-a'], location_id: randomUUID(), available: 1 },
      { inventory_item_id: foreignItem, location_id: ids.locations.cellar, available: 1 },
    ]) {
      await shop.admin.post('/admin/inventory_levels/set', body).expect(404);
      await shop.admin.post('/admin/inventory_levels/adjust', { ...body, available: undefined, available_adjustment: 1 }).expect(404);
    }
    // the other shop's own item is not visible here
    const theirs = (await other.admin.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-a']}`).expect(200)).body.inventory_levels;
    expect(theirs).toEqual([]);
    await other.admin
      .post('/admin/inventory_levels/adjust', { inventory_item_id: ids.variants['v-a'], location_id: ids.locations.cellar, available_adjustment: 1 })
      .expect(404);
  });

  it.each([
    ['missing body', undefined],
    ['no available', { inventory_item_id: randomUUID(), location_id: randomUUID() }],
    ['negative set', { inventory_item_id: randomUUID(), location_id: randomUUID(), available: -1 }],
    ['string available', { inventory_item_id: randomUUID(), location_id: randomUUID(), available: '5' }],
    ['bad item id', { inventory_item_id: 'nope', location_id: randomUUID(), available: 5 }],
    ['too many decimals', { inventory_item_id: randomUUID(), location_id: randomUUID(), available: 1.0001 }],
  ])('set 422 on %s', async (_name, body) => {
    await shop.admin.post('/admin/inventory_levels/set', body).expect(422);
  });

  it.each([
    ['missing body', undefined],
    ['no adjustment', { inventory_item_id: randomUUID(), location_id: randomUUID() }],
    ['huge adjustment', { inventory_item_id: randomUUID(), location_id: randomUUID(), available_adjustment: 1e12 }],
  ])('adjust 422 on %s', async (_name, body) => {
    await shop.admin.post('/admin/inventory_levels/adjust', body).expect(422);
  });

  it('needs Shop/inventory/read and Shop/inventory/write', async () => {
    const minted = await shop.admin.post('/admin/access_tokens', { label: 'reader', tier: 'admin', scopes: ['Shop/inventory/read'] }).expect(201);
    const reader = t.client(minted.body.access_token.token);
    await reader.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-a']}`).expect(200);
    await reader
      .post('/admin/inventory_levels/adjust', { inventory_item_id: ids.variants['v-a'], location_id: ids.locations.cellar, available_adjustment: 1 })
      .expect(403);
    await t.http().get(`/api/2026-04-01/admin/inventory_levels?inventory_item_ids=${ids.variants['v-a']}`).expect(401);
    await shop.storefront.get(`/admin/inventory_levels?inventory_item_ids=${ids.variants['v-a']}`).expect(401);
  });
});
