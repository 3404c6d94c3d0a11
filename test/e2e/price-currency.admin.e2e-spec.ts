import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { checkoutImport, Ids, importShop } from './checkout.fixture.js';

/**
 * Issue 30: a `currency` sent with variant prices is no longer stripped and ignored (EUR 10 stored as CHF 10). Prices
 * are kept in the shop's default currency and derived for the others by rate (CONTRACT 6), so the member is accepted
 * when it names the default currency and is 422 `currency_mismatch` naming the member otherwise, on the import and on
 * every admin product write; a refused write changes nothing.
 */
describe('the currency of variant prices (issue 30)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(() => t?.close());

  const wine = async () => (await shop.admin.get(`/admin/products/${ids.products['p-wine']}`).expect(200)).body.product.variants[0];
  const mismatch = (path: string) => ({
    code: 'currency_mismatch',
    errors: `${path} must be the shop's default currency (CHF): prices are set in it, the other currencies are derived by their rate`,
  });

  it('the import: another currency of the shop, or one it does not have, is 422 naming the member; nothing changes', async () => {
    const doc = checkoutImport();
    const variant = (doc.products[1].variants[0] as Record<string, unknown>)!;
    variant.price = 1;
    for (const code of ['EUR', 'USD']) {
      variant.currency = code;
      const res = await shop.admin.post('/admin/catalogue/import', doc).expect(422);
      expect(res.body).toEqual(mismatch('products[1].variants[0].currency'));
    }
    variant.currency = 'EURO';
    expect((await shop.admin.post('/admin/catalogue/import', doc).expect(422)).body.errors).toBe(
      'products[1].variants[0].currency must be at most 3 characters',
    );
    variant.currency = 'E1R';
    expect((await shop.admin.post('/admin/catalogue/import', doc).expect(422)).body.errors).toBe(
      'products[1].variants[0].currency must be an ISO 4217 code of 3 letters',
    );
    const juice = (await shop.admin.get(`/admin/products/${ids.products['p-juice']}`).expect(200)).body.product.variants[0];
    expect(juice.price).toBe(6.35);

    // the NDJSON form names the line as well
    const lines = [{ products: [doc.products[0]] }, { products: [{ ...doc.products[1], variants: [{ ...variant, currency: 'EUR' }] }] }];
    const nd = await shop.admin
      .post('/admin/catalogue/import')
      .set('Content-Type', 'application/x-ndjson')
      .send(lines.map((l) => JSON.stringify(l)).join('\n'))
      .expect(422);
    expect(nd.body.errors).toBe(`${mismatch('products[1].variants[0].currency').errors} (line 2)`);

    // the default currency, in any case, is the price's own
    variant.currency = 'chf';
    await shop.admin.post('/admin/catalogue/import', doc).expect(200);
    expect((await shop.admin.get(`/admin/products/${ids.products['p-juice']}`).expect(200)).body.product.variants[0].price).toBe(1);
  });

  it("the import's shipping methods: a price in another currency is 422 naming the member; the admin API refuses the member", async () => {
    const doc = checkoutImport();
    const methods = doc.shipping_methods as Array<Record<string, unknown>>;
    methods[1] = { ...methods[1], price: 1, currency: 'EUR' };
    const res = await shop.admin.post('/admin/catalogue/import', doc).expect(422);
    expect(res.body).toEqual(mismatch('shipping_methods[1].currency'));
    const express = async () =>
      ((await shop.admin.get('/admin/shipping_methods').expect(200)).body.shipping_methods as Array<{ key: string; price: number }>).find(
        (m) => m.key === 'express',
      )!;
    expect((await express()).price).toBe(25);
    methods[1] = { ...methods[1], currency: 'CHF' };
    await shop.admin.post('/admin/catalogue/import', doc).expect(200);
    expect((await express()).price).toBe(1);
    const admin = await shop.admin.put(`/admin/shipping_methods/${ids.shipping_methods.express}`, { price: 2, currency: 'EUR' }).expect(422);
    expect(admin.body.errors).toContain('currency');
    expect((await express()).price).toBe(1);
  });

  it('the admin API: POST and PUT of products and variants refuse a price in another currency; nothing changes', async () => {
    const before = await wine();
    let res = await shop.admin.put(`/admin/products/${ids.products['p-wine']}`, { variants: [{ id: before.id, price: 1, currency: 'EUR' }] }).expect(422);
    expect(res.body).toEqual(mismatch('product.variants[0].currency'));
    res = await shop.admin.put(`/admin/products/${ids.products['p-wine']}/variants/${before.id}`, { price: 1, currency: 'EUR' }).expect(422);
    expect(res.body).toEqual(mismatch('variant.currency'));
    res = await shop.admin.post(`/admin/products/${ids.products['p-wine']}/variants`, { price: 1, currency: 'eur' }).expect(422);
    expect(res.body).toEqual(mismatch('variant.currency'));
    res = await shop.admin.post('/admin/products', { title: 'Priced in euros', variants: [{ price: 1, currency: 'EUR' }] }).expect(422);
    expect(res.body).toEqual(mismatch('product.variants[0].currency'));
    expect(await wine()).toEqual(before);
    expect((await shop.admin.get('/admin/products').expect(200)).body.products.map((p: { title: string }) => p.title)).not.toContain('Priced in euros');

    const put = await shop.admin.put(`/admin/products/${ids.products['p-wine']}/variants/${before.id}`, { price: 19.9, currency: 'CHF' }).expect(200);
    expect(put.body.variant.price).toBe(19.9);
    await shop.admin.post('/admin/products', { title: 'Priced in francs', variants: [{ price: 1, currency: 'CHF' }] }).expect(201);
  });
});
