import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { addr, BOTTLES, inDays, shopImport, ZONES } from './shipping.fixture.js';

/**
 * Shipping (issue 31, README "Shipping"): methods with rate tables and zones, postcode exclusions, shipping_options
 * filtered and priced, destination rules refused at completion, import/export. Expected prices are worked out from
 * the fixture by hand (the rate tables are small).
 */

describe('shipping rates, zones and destination rules', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: { variants: Record<string, string>; shipping_methods: Record<string, string>; payment_types: Record<string, string> };
  const zone: Record<string, string> = {};
  const method: Record<string, string> = {};

  async function checkout(client: ShopClient, lines: Array<[string, number]>, address: object) {
    for (const [id, quantity] of lines) await client.post('/cart/items', { article_id: ids.variants[id], quantity }).expect(200);
    const c = (await client.post('/checkouts').expect(200)).body.checkout;
    return (await client.put(`/checkouts/${c.id}`, { shipping_address: address }).expect(200)).body.checkout;
  }
  const visitor = () => t.client(shop.storefront_token);
  const options = (c: { shipping_options: Array<{ id: string; price: string; expected_delivery_date: string }> }) =>
    Object.fromEntries(c.shipping_options.map((o) => [Object.entries(method).find(([, id]) => id === o.id)?.[0] ?? o.id, o.price]));

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const res = await shop.admin.post('/admin/catalogue/import', shopImport()).expect(200);
    ids = res.body.import.ids;
    method.post = ids.shipping_methods.post;
    method.usa = ids.shipping_methods.usa;
    for (const z of ZONES) zone[z.key] = (await shop.admin.post('/admin/tax_zones', z).expect(201)).body.tax_zone.id;
  });
  afterAll(() => t.close());

  describe('admin /admin/shipping_methods', () => {
    it('refuses a rate table with a gap or an overlap, an unknown zone and bad members with 422 naming the member; nothing is written', async () => {
      const cases: Array<[object, string]> = [
        [
          {
            name: 'x',
            rate_table: {
              basis: 'bottles',
              steps: [
                { from: 1, to: 6, price: 1 },
                { from: 8, to: null, price: 2 },
              ],
            },
          },
          'rate_table.steps[1].from leaves a gap',
        ],
        [
          {
            name: 'x',
            rate_table: {
              basis: 'bottles',
              steps: [
                { from: 1, to: 6, price: 1 },
                { from: 5, to: null, price: 2 },
              ],
            },
          },
          'rate_table.steps[1].from overlaps',
        ],
        [{ name: 'x', rate_table: { basis: 'litres', steps: [] } }, 'rate_table.basis'],
        [{ name: 'x', zones: [{ zone: 'atlantis' }] }, 'zones[0].zone names no zone of the shop'],
        [{ name: 'x', zones: [{ zone: 'eu', excluded_postcodes: ['<b>'] }] }, 'zones[0].excluded_postcodes[0]'],
        [
          { name: 'x', zones: [{ zone: 'eu', rate_table: { basis: 'value', steps: [{ from: 10, to: null, price: 1 }] } }] },
          'zones[0].rate_table.steps[0].from leaves a gap',
        ],
        [{ name: 'x', price: -1 }, 'price must be at least 0'],
        [{ name: 'x', colour: 'red' }, 'colour is not a shipping method member'],
        [{ price: 3 }, 'name is required'],
        [{ name: 'x', key: 'post' }, 'key "post" is already the key'],
      ];
      for (const [body, message] of cases) {
        const res = await shop.admin.post('/admin/shipping_methods', body).expect(422);
        expect(res.body.errors).toContain(message);
      }
      const listed = (await shop.admin.get('/admin/shipping_methods').expect(200)).body.shipping_methods;
      expect(listed.map((m: { key: string }) => m.key).sort()).toEqual(['post', 'usa']);
    });

    it('creates, reads, lists, updates and deletes a method, each with its event', async () => {
      const created = (
        await shop.admin
          .post('/admin/shipping_methods', {
            key: 'cases',
            name: { en: 'Wine cases' },
            tax_rate: 8.1,
            delivery_days: 4,
            rate_table: BOTTLES,
            zones: [
              { zone: 'eu' },
              { zone: 'fr', excluded_postcodes: ['20*'] },
              { zone: 'ch', rate_table: { basis: 'bottles', steps: [{ from: 1, to: null, price: 9 }] }, free_over: 200, delivery_days: 1 },
            ],
          })
          .expect(201)
      ).body.shipping_method;
      expect(created).toEqual({
        id: expect.any(String),
        key: 'cases',
        name: { en: 'Wine cases' },
        price: 0,
        tax_rate: 8.1,
        countries: [],
        free_over: null,
        delivery_days: 4,
        rate_table: BOTTLES,
        zones: [
          { zone: 'eu', rate_table: null, free_over: null, delivery_days: null, excluded_postcodes: [] },
          { zone: 'fr', rate_table: null, free_over: null, delivery_days: null, excluded_postcodes: ['20*'] },
          {
            zone: 'ch',
            rate_table: { basis: 'bottles', steps: [{ from: 1, to: null, price: 9 }], beyond: null },
            free_over: 200,
            delivery_days: 1,
            excluded_postcodes: [],
          },
        ],
        rate_provider: null,
        created_at: expect.any(String),
        updated_at: null,
      });
      method.cases = created.id;
      expect((await shop.admin.get(`/admin/shipping_methods/${created.id}`).expect(200)).body).toEqual({ shipping_method: created });

      const weight = (
        await shop.admin
          .post('/admin/shipping_methods', {
            key: 'weight',
            name: 'By weight',
            tax_rate: 8.1,
            rate_table: {
              basis: 'grams',
              steps: [
                { from: 0, to: 5000, price: 15 },
                { from: 5001, to: null, price: 30 },
              ],
            },
            zones: [{ zone: 'fr' }],
          })
          .expect(201)
      ).body.shipping_method;
      method.weight = weight.id;

      const temp = (await shop.admin.post('/admin/shipping_methods', { name: 'Temporary', price: 5 }).expect(201)).body.shipping_method;
      expect(temp.key).toMatch(/^shipping-/);
      const upd = (await shop.admin.put(`/admin/shipping_methods/${temp.id}`, { price: 6.5, countries: ['ch'] }).expect(200)).body.shipping_method;
      expect(upd).toMatchObject({ price: 6.5, countries: ['CH'], name: { en: 'Temporary' } });
      expect(upd.updated_at).not.toBeNull();
      await shop.admin.put(`/admin/shipping_methods/${temp.id}`, { zones: [{ zone: 'nowhere' }] }).expect(422);

      const first = await shop.admin.get('/admin/shipping_methods?limit=2').expect(200);
      expect(first.body.shipping_methods.map((m: { key: string }) => m.key)).toEqual([temp.key, 'weight']);
      expect(first.headers.link).toMatch(/rel="next"/);

      await shop.admin.delete(`/admin/shipping_methods/${temp.id}`).expect(204);
      await shop.admin.delete(`/admin/shipping_methods/${temp.id}`).expect(404);
      const other = await t.createShop();
      await other.admin.get(`/admin/shipping_methods/${created.id}`).expect(404);
      const topics = (
        await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'shipping_method'->>'id' = $2 ORDER BY occurred_at, id`, [
          shop.tenant.id,
          temp.id,
        ])
      ).map((r: { topic: string }) => r.topic);
      expect(topics).toEqual(['shipping_method.created', 'shipping_method.updated', 'shipping_method.deleted']);
    });
  });

  describe('shipping_options', () => {
    it('lists only the methods that serve the address and the lines, each with its computed price', async () => {
      // 7 bottles of 1,300 g to Berlin: the cases method through its eu zone (7–12: 18.00); post ships to CH only; weight to FR only
      const de = await checkout(visitor(), [['v-wine', 7]], addr('DE', '10115'));
      expect(options(de)).toEqual({ cases: '18.00' });
      expect(de.shipping_options[0].expected_delivery_date).toBe(inDays(4));

      // Paris: the fr zone of both methods (cases by its own table; weight: 9,100 g > 5,000: 30.00)
      const fr = await checkout(visitor(), [['v-wine', 7]], addr('FR', '75001'));
      expect(options(fr)).toEqual({ cases: '18.00', weight: '30.00' });

      // Corsica (a postcode zone inside fr) is excluded from the cases method's fr zone; weight still serves it through fr
      const corsica = await checkout(visitor(), [['v-wine', 7]], addr('FR', '20 000'));
      expect(options(corsica)).toEqual({ weight: '30.00' });

      // Zürich: cases by the ch zone's own table (9.00, 1 day) beside the flat post method
      const ch = await checkout(visitor(), [['v-wine', 7]], addr('CH', '8001'));
      expect(options(ch)).toEqual({ post: '9.50', cases: '9.00' });
      expect(ch.shipping_options.find((o: { id: string }) => o.id === method.cases).expected_delivery_date).toBe(inDays(1));

      // 13 and 19 bottles: the next step, then per started case of 6 beyond 18; free over 200 in ch (10 × 20.00)
      expect(options(await checkout(visitor(), [['v-wine', 13]], addr('DE', '10115')))).toEqual({ cases: '26.00' });
      expect(options(await checkout(visitor(), [['v-wine', 19]], addr('DE', '10115')))).toEqual({ cases: '34.00' });
      expect(options(await checkout(visitor(), [['v-wine', 10]], addr('CH', '8001')))).toEqual({ post: '9.50', cases: '0.00' });
    });

    it('charges the chosen method’s computed price in the totals, and refuses a method that does not serve the address', async () => {
      const client = visitor();
      const c = await checkout(client, [['v-wine', 8]], addr('DE', '10115'));
      const chosen = (await client.put(`/checkouts/${c.id}`, { shipping_method_id: method.cases }).expect(200)).body.checkout;
      expect(chosen.totals).toMatchObject({ shipping_amount: 18, subtotal: 160, total: 178, shipping_tax_rate: 8.1, shipping_method_name: 'Wine cases' });
      const refused = await client.put(`/checkouts/${c.id}`, { shipping_method_id: method.weight }).expect(422);
      expect(refused.body.code).toBe('shipping_method_not_offered');
      // moving to Corsica drops the method the address no longer gets
      const moved = (await client.put(`/checkouts/${c.id}`, { shipping_address: addr('FR', '20000') }).expect(200)).body.checkout;
      expect(moved.selected_shipping_method_id).toBeNull();
      expect(moved.totals.shipping_amount).toBe(0);
    });
  });

  describe('destination rules', () => {
    const complete = (client: ShopClient, id: string, extra: object = {}) =>
      client.post(`/checkouts/${id}/complete`, { payment_type_id: ids.payment_types.invoice, ...extra });
    let rules: Record<string, string>;

    beforeAll(async () => {
      rules = {};
      const bodies = [
        { zone: 'us', alcohol_shipping: false },
        { zone: 'eu', max_litres_per_order: 9 },
        { zone: 'fr', max_litres_per_year: 6, min_age: 21 },
      ];
      for (const b of bodies) rules[b.zone] = (await shop.admin.post('/admin/destination_rules', b).expect(201)).body.destination_rule.id;
    });

    it('admin CRUD: one rule per zone, 422 naming the member, events', async () => {
      expect((await shop.admin.post('/admin/destination_rules', { zone: 'us' }).expect(422)).body.errors).toContain('already has destination rules');
      expect((await shop.admin.post('/admin/destination_rules', { zone: 'mars' }).expect(422)).body.errors).toContain('zone names no zone');
      expect((await shop.admin.post('/admin/destination_rules', { zone: 'ch', min_age: 'old' }).expect(422)).body.errors).toContain('min_age');
      const got = (await shop.admin.get(`/admin/destination_rules/${rules.eu}`).expect(200)).body.destination_rule;
      expect(got).toEqual({
        id: rules.eu,
        zone: 'eu',
        alcohol_shipping: true,
        max_litres_per_order: 9,
        max_litres_per_year: null,
        min_age: null,
        created_at: expect.any(String),
        updated_at: null,
      });
      const temp = (await shop.admin.post('/admin/destination_rules', { zone: 'ch', min_age: 18 }).expect(201)).body.destination_rule;
      expect((await shop.admin.put(`/admin/destination_rules/${temp.id}`, { min_age: null }).expect(200)).body.destination_rule.min_age).toBeNull();
      // a PUT without a body is 422 before the rule is looked up
      await shop.admin.put('/admin/destination_rules/00000000-0000-4000-8000-000000000000').expect(422);
      await shop.admin.put(`/admin/destination_rules/${temp.id}`, { max_litres_per_year: 'lots' }).expect(422);
      await shop.admin.delete(`/admin/destination_rules/${temp.id}`).expect(204);
      await shop.admin.get(`/admin/destination_rules/${temp.id}`).expect(404);
      const listed = (await shop.admin.get('/admin/destination_rules').expect(200)).body.destination_rules;
      expect(listed.map((r: { zone: string }) => r.zone).sort()).toEqual(['eu', 'fr', 'us']);
    });

    it('a closed destination is shown beforehand and refused at completion with destination_closed; non-alcoholic lines pass', async () => {
      const client = visitor();
      const c = await checkout(client, [['v-wine', 1]], addr('US', '10001'));
      expect(c.compliance.destination).toEqual({
        allowed: false,
        reasons: [{ code: 'destination_closed', zone: 'us', message: expect.stringContaining('alcohol cannot be shipped') }],
      });
      await client.put(`/checkouts/${c.id}`, { shipping_method_id: method.usa }).expect(200);
      const refused = await complete(client, c.id).expect(422);
      expect(refused.body.code).toBe('destination_closed');
      expect((await client.get(`/checkouts/${c.id}`).expect(200)).body.checkout.is_completed).toBe(false);

      const juice = visitor();
      const j = await checkout(juice, [['v-juice', 2]], addr('US', '10001'));
      expect(j.compliance.destination).toEqual({ allowed: true, reasons: [] });
      await juice.put(`/checkouts/${j.id}`, { shipping_method_id: method.usa }).expect(200);
      await complete(juice, j.id).expect(200);
    });

    it('limits the litres per order (12 × 0.75 l = 9 l passes, 13 is refused with volume_limit_exceeded)', async () => {
      const ok = await checkout(visitor(), [['v-wine', 12]], addr('DE', '10115'));
      expect(ok.compliance.destination).toEqual({ allowed: true, reasons: [] });
      const client = visitor();
      const over = await checkout(client, [['v-wine', 13]], addr('IT', '00100'));
      expect(over.compliance.destination.allowed).toBe(false);
      expect(over.compliance.destination.reasons.map((r: { code: string }) => r.code)).toEqual(['volume_limit_exceeded']);
      await client.put(`/checkouts/${over.id}`, { shipping_method_id: method.cases }).expect(200);
      expect((await complete(client, over.id).expect(422)).body.code).toBe('volume_limit_exceeded');
    });

    it('counts the buyer’s earlier orders of the calendar year by email, and asks the zone’s minimum age (age_requirement)', async () => {
      const first = visitor();
      const a = await checkout(first, [['v-wine', 6]], addr('FR', '75001', 'Yearly@Example.com'));
      // the fr rule is the most specific for Paris: its minimum age replaces the shop's (0 here)
      expect(a.compliance.age_verification).toEqual({ required: true, min_age: 21 });
      expect(a.compliance.destination).toEqual({ allowed: true, reasons: [{ code: 'age_requirement', zone: 'fr', message: expect.any(String) }] });
      await first.put(`/checkouts/${a.id}`, { shipping_method_id: method.weight }).expect(200);
      expect((await complete(first, a.id).expect(422)).body.code).toBe('age_requirement');
      await complete(first, a.id, { age_confirmed: true }).expect(200);

      // 4.5 l ordered this year: 3 more bottles (6.75 l) break the 6 l a year, 2 (6 l) do not; the email's case does not matter
      const second = visitor();
      const b = await checkout(second, [['v-wine', 3]], addr('FR', '75001', 'yearly@example.com'));
      expect(b.compliance.destination.reasons.map((r: { code: string }) => r.code)).toEqual(['volume_limit_exceeded', 'age_requirement']);
      await second.put(`/checkouts/${b.id}`, { shipping_method_id: method.weight }).expect(200);
      expect((await complete(second, b.id, { age_confirmed: true }).expect(422)).body.code).toBe('volume_limit_exceeded');
      const third = await checkout(visitor(), [['v-wine', 2]], addr('FR', '75001', 'yearly@example.com'));
      expect(third.compliance.destination.allowed).toBe(true);
      // another buyer starts from zero
      expect((await checkout(visitor(), [['v-wine', 3]], addr('FR', '75001', 'other@example.com'))).compliance.destination.allowed).toBe(true);
    });
  });

  describe('a shop that configures none of this', () => {
    it('shows no destination member and prices shipping flat, as before', async () => {
      const plain = await t.createShop();
      const res = await plain.admin.post('/admin/catalogue/import', shopImport()).expect(200);
      const client = t.client(plain.storefront_token);
      await client.post('/cart/items', { article_id: res.body.import.ids.variants['v-wine'], quantity: 7 }).expect(200);
      const c = (await client.post('/checkouts').expect(200)).body.checkout;
      const put = (
        await client
          .put(`/checkouts/${c.id}`, { shipping_address: addr('CH', '8001'), shipping_method_id: res.body.import.ids.shipping_methods.post })
          .expect(200)
      ).body.checkout;
      expect(Object.keys(put.compliance)).toEqual(['terms', 'age_verification']);
      expect(put.shipping_options).toEqual([
        { id: res.body.import.ids.shipping_methods.post, name: 'Swiss Post', price: '9.50', expected_delivery_date: inDays(2) },
      ]);
      expect(put.totals.shipping_amount).toBe(9.5);
      const exported = (await plain.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(exported.destination_rules).toBeUndefined();
      expect(exported.shipping_methods[0]).toEqual({
        key: 'post',
        name: { en: 'Swiss Post' },
        price: 9.5,
        tax_rate: 8.1,
        countries: ['CH'],
        free_over: null,
        delivery_days: 2,
      });
    });
  });

  describe('import and export', () => {
    it('round-trips methods with rate tables and zones, and destination rules; a second import changes nothing', async () => {
      const doc = (await shop.admin.get('/admin/catalogue/export').expect(200)).body;
      const cases = doc.shipping_methods.find((m: { key: string }) => m.key === 'cases');
      expect(cases).toMatchObject({
        rate_table: BOTTLES,
        zones: [{ zone: 'eu' }, { zone: 'fr', excluded_postcodes: ['20*'] }, { zone: 'ch', free_over: 200 }],
      });
      expect(doc.destination_rules).toEqual([
        { zone: 'eu', alcohol_shipping: true, max_litres_per_order: 9, max_litres_per_year: null, min_age: null },
        { zone: 'fr', alcohol_shipping: true, max_litres_per_order: null, max_litres_per_year: 6, min_age: 21 },
        { zone: 'us', alcohol_shipping: false, max_litres_per_order: null, max_litres_per_year: null, min_age: null },
      ]);
      // methods written by the admin API carry no import hash yet: the first import of the export records it
      await shop.admin.post('/admin/catalogue/import', doc).expect(200);
      const again = await shop.admin.post('/admin/catalogue/import', doc).expect(200);
      expect(again.body.import.updated.shipping_methods).toBe(0);
      expect(again.body.import.updated.destination_rules).toBe(0);
      expect(again.body.import.created.destination_rules).toBe(0);

      const copy = await t.createShop();
      const imported = await copy.admin.post('/admin/catalogue/import', doc).expect(200);
      expect(imported.body.import.created.destination_rules).toBe(3);
      const back = (await copy.admin.get('/admin/catalogue/export').expect(200)).body;
      expect(back.shipping_methods).toEqual(doc.shipping_methods);
      expect(back.destination_rules).toEqual(doc.destination_rules);
    });

    it('refuses a bad rate table or rule in the import with 422 naming its path, writing nothing', async () => {
      const bad = {
        shipping_methods: [
          {
            key: 'x',
            name: 'X',
            rate_table: {
              basis: 'grams',
              steps: [
                { from: 0, to: 10, price: 1 },
                { from: 10, to: null, price: 2 },
              ],
            },
          },
        ],
      };
      expect((await shop.admin.post('/admin/catalogue/import', bad).expect(422)).body.errors).toContain(
        'shipping_methods[0].rate_table.steps[1].from overlaps',
      );
      const badRule = { destination_rules: [{ zone: 'eu', max_litres_per_order: -2 }] };
      expect((await shop.admin.post('/admin/catalogue/import', badRule).expect(422)).body.errors).toContain('destination_rules[0].max_litres_per_order');
      const keys = (await shop.admin.get('/admin/shipping_methods').expect(200)).body.shipping_methods.map((m: { key: string }) => m.key);
      expect(keys).not.toContain('x');
    });
  });
});
