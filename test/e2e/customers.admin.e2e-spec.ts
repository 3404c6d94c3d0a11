import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { nextPath } from '../helpers/paging.js';

const CUSTOMER_KEYS = ['id', 'email', 'is_active', 'is_email_confirmed', 'type', 'currency_id', 'default_address', 'created_at', 'updated_at'].sort();

describe('admin customers', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let chf: string;
  let eur: string;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    chf = (await t.db.query(`SELECT id FROM currencies WHERE tenant_id = $1 AND is_default`, [shop.tenant.id]))[0].id;
    eur = (
      await t.db.query(`INSERT INTO currencies (tenant_id, key, code, name, rate) VALUES ($1, 'EUR', 'EUR', 'Euro', 1.06) RETURNING id`, [shop.tenant.id])
    )[0].id;
  });
  afterAll(() => t.close());

  it('creates with only an email: defaults, an empty default address (SPEC: not nullable), updated_at null', async () => {
    const res = await shop.admin.post('/admin/customers', { email: 'Anna@Example.com' }).expect(201);
    expect(Object.keys(res.body)).toEqual(['customer']);
    const c = res.body.customer;
    expect(Object.keys(c).sort()).toEqual(CUSTOMER_KEYS);
    expect(c).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'Anna@Example.com',
      is_active: true,
      is_email_confirmed: false,
      type: 'customer',
      currency_id: null,
      default_address: {
        id: res.body.customer.id,
        first_name: null,
        last_name: null,
        company: null,
        department: null,
        street: null,
        zip_code: null,
        location: null,
        country_id: null,
        phone_number: null,
        mobile_number: null,
        fax_number: null,
        email: null,
        website: null,
        title_id: null,
      },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: null,
    });
    expect((await shop.admin.get(`/admin/customers/${c.id}`).expect(200)).body).toEqual({ customer: c });
  });

  it('creates with every member', async () => {
    const body = { email: 'corp@example.com', is_active: false, is_email_confirmed: true, type: 'corporate', currency_id: eur };
    const res = await shop.admin.post('/admin/customers', body).expect(201);
    expect(res.body.customer).toMatchObject(body);
    await shop.admin.post('/admin/customers', { email: 'reseller@example.com', type: 'reseller', currency_id: chf }).expect(201);
  });

  it('shows the default (billing) address without house_number', async () => {
    const c = (await shop.admin.post('/admin/customers', { email: 'with-address@example.com' }).expect(201)).body.customer;
    const country = (
      await t.db.query(`INSERT INTO countries (tenant_id, key, code, name) VALUES ($1, 'CH', 'CH', '{"en":"Switzerland"}') RETURNING id`, [shop.tenant.id])
    )[0].id;
    const [addr] = await t.db.query(
      `INSERT INTO customer_addresses (tenant_id, customer_id, first_name, last_name, company, street, house_number, zip_code, location, country_id, phone_number, email)
       VALUES ($1, $2, 'Anna', 'Muster', 'ACME', 'Bahnhofstrasse', '12', '8001', 'Zürich', $3, '+41 44 000 00 00', 'billing@example.com') RETURNING id`,
      [shop.tenant.id, c.id, country],
    );
    await t.db.query(`UPDATE customers SET default_address_id = $1 WHERE id = $2`, [addr.id, c.id]);
    const res = await shop.admin.get(`/admin/customers/${c.id}`).expect(200);
    expect(res.body.customer.default_address).toEqual({
      id: addr.id,
      first_name: 'Anna',
      last_name: 'Muster',
      company: 'ACME',
      department: null,
      street: 'Bahnhofstrasse',
      zip_code: '8001',
      location: 'Zürich',
      country_id: country,
      phone_number: '+41 44 000 00 00',
      mobile_number: null,
      fax_number: null,
      email: 'billing@example.com',
      website: null,
      title_id: null,
    });
    const list = await shop.admin.get('/admin/customers?limit=250').expect(200);
    expect(list.body.customers.find((x: { id: string }) => x.id === c.id).default_address.id).toBe(addr.id);
    // deleting the customer deletes its addresses
    await shop.admin.delete(`/admin/customers/${c.id}`).expect(204);
    expect(await t.db.query(`SELECT 1 FROM customer_addresses WHERE id = $1`, [addr.id])).toHaveLength(0);
  });

  it.each([
    ['missing body', undefined],
    ['missing email', { type: 'customer' }],
    ['null email', { email: null }],
    ['not an email', { email: 'not-an-email' }],
    ['email of wrong type', { email: 7 }],
    ['email too long', { email: `${'a'.repeat(250)}@example.com` }],
    ['unknown type', { email: 'x1@example.com', type: 'vip' }],
    ['is_active not a boolean', { email: 'x2@example.com', is_active: 'true' }],
    ['is_email_confirmed not a boolean', { email: 'x3@example.com', is_email_confirmed: 1 }],
    ['currency_id not a uuid', { email: 'x4@example.com', currency_id: 'CHF' }],
    ['currency_id of no currency of the shop', { email: 'x5@example.com', currency_id: '00000000-0000-4000-8000-000000000000' }],
  ])('rejects %s with 422 and the error envelope', async (_name, body) => {
    const res = await shop.admin.post('/admin/customers', body).expect(422);
    expect(res.body).toEqual({ errors: expect.any(String) });
  });

  it("rejects another shop's currency", async () => {
    const theirs = (await t.db.query(`SELECT id FROM currencies WHERE tenant_id = $1`, [other.tenant.id]))[0].id;
    await shop.admin.post('/admin/customers', { email: 'foreign-currency@example.com', currency_id: theirs }).expect(422);
  });

  it('rejects a duplicate email, case-insensitively, within the shop only', async () => {
    await shop.admin.post('/admin/customers', { email: 'dup@example.com' }).expect(201);
    const res = await shop.admin.post('/admin/customers', { email: 'DUP@Example.COM' }).expect(422);
    expect(res.body.errors).toContain('email');
    await other.admin.post('/admin/customers', { email: 'dup@example.com' }).expect(201);
  });

  it('two concurrent creates with the same email: one 201, one 422', async () => {
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        [`race${round}@example.com`, `Race${round}@Example.com`].map((email) => shop.admin.post('/admin/customers', { email })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect(results.find((r) => r.status === 422)!.body).toEqual({ errors: expect.any(String) });
    }
  });

  it('update applies only the supplied members and sets updated_at', async () => {
    const c = (await shop.admin.post('/admin/customers', { email: 'upd@example.com', currency_id: eur }).expect(201)).body.customer;
    const res = await shop.admin.put(`/admin/customers/${c.id}`, { type: 'reseller', is_email_confirmed: true }).expect(200);
    expect(res.body.customer).toMatchObject({
      id: c.id,
      email: 'upd@example.com',
      is_active: true,
      is_email_confirmed: true,
      type: 'reseller',
      currency_id: eur,
      created_at: c.created_at,
    });
    expect(res.body.customer.updated_at).toEqual(expect.stringMatching(/^\d{4}-/));
    // nulls: flags and type unchanged, currency cleared; the same email (any case) is accepted
    const res2 = await shop.admin.put(`/admin/customers/${c.id}`, { is_active: null, type: null, currency_id: null, email: 'UPD@example.com' }).expect(200);
    expect(res2.body.customer).toMatchObject({ email: 'upd@example.com', is_active: true, type: 'reseller', currency_id: null });
    const res3 = await shop.admin.put(`/admin/customers/${c.id}`, { is_active: false, currency_id: chf }).expect(200);
    expect(res3.body.customer).toMatchObject({ is_active: false, currency_id: chf });
    expect((await shop.admin.get(`/admin/customers/${c.id}`)).body.customer).toEqual(res3.body.customer);
  });

  it.each([
    ['a changed email', { email: 'someone-else@example.com' }],
    ['missing body', undefined],
    ['unknown type', { type: 'vip' }],
    ['is_active not a boolean', { is_active: 'no' }],
    ['currency_id of no currency of the shop', { currency_id: '00000000-0000-4000-8000-000000000000' }],
    ['email of wrong type', { email: 5 }],
  ])('update rejects %s with 422 and changes nothing', async (_name, body) => {
    const c = (await shop.admin.post('/admin/customers', { email: `u422-${Math.random().toString(36).slice(2)}@example.com` }).expect(201)).body.customer;
    const res = await shop.admin.put(`/admin/customers/${c.id}`, body).expect(422);
    expect(res.body).toEqual({ errors: expect.any(String) });
    expect((await shop.admin.get(`/admin/customers/${c.id}`)).body.customer).toEqual(c);
  });

  it('update: a different email is refused as read-only, even one that is no address (the create rule does not apply)', async () => {
    const c = (await shop.admin.post('/admin/customers', { email: 'fixed@example.com' }).expect(201)).body.customer;
    for (const email of ['other@example.com', 'not an address']) {
      const res = await shop.admin.put(`/admin/customers/${c.id}`, { email }).expect(422);
      expect(res.body.errors).toContain('email is read-only');
    }
    expect((await shop.admin.get(`/admin/customers/${c.id}`)).body.customer.email).toBe('fixed@example.com');
  });

  it('delete is 204 without body, then 404', async () => {
    const c = (await shop.admin.post('/admin/customers', { email: 'gone@example.com' }).expect(201)).body.customer;
    expect((await shop.admin.delete(`/admin/customers/${c.id}`).expect(204)).text).toBe('');
    await shop.admin.delete(`/admin/customers/${c.id}`).expect(404);
    await shop.admin.get(`/admin/customers/${c.id}`).expect(404);
    await shop.admin.put(`/admin/customers/${c.id}`, { type: 'customer' }).expect(404);
    // the email is free again
    await shop.admin.post('/admin/customers', { email: 'gone@example.com' }).expect(201);
  });

  it('unknown ids are 404, malformed ids 422', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await shop.admin.get(`/admin/customers/${unknown}`).expect(404);
    await shop.admin.put(`/admin/customers/${unknown}`, {}).expect(404);
    await shop.admin.delete(`/admin/customers/${unknown}`).expect(404);
    await shop.admin.get('/admin/customers/123').expect(422);
  });

  it("another shop's customer is 404 and absent from the list", async () => {
    const theirs = (await other.admin.post('/admin/customers', { email: 'theirs@example.com' }).expect(201)).body.customer;
    await shop.admin.get(`/admin/customers/${theirs.id}`).expect(404);
    await shop.admin.put(`/admin/customers/${theirs.id}`, { is_active: false }).expect(404);
    await shop.admin.delete(`/admin/customers/${theirs.id}`).expect(404);
    const list = await shop.admin.get('/admin/customers?limit=250').expect(200);
    expect(list.body.customers.map((c: { id: string }) => c.id)).not.toContain(theirs.id);
    expect((await other.admin.get(`/admin/customers/${theirs.id}`).expect(200)).body.customer.is_active).toBe(true);
  });

  it('lists every customer through more than one page', async () => {
    const fresh = await t.createShop();
    const made: string[] = [];
    for (let i = 0; i < 23; i += 1)
      made.push((await fresh.admin.post('/admin/customers', { email: `p${i}@example.com`, is_active: i % 3 !== 0 }).expect(201)).body.customer.id);
    const seen: string[] = [];
    let path: string | null = '/admin/customers?limit=10';
    let pages = 0;
    while (path) {
      const res = await fresh.admin.get(path).expect(200);
      expect(Object.keys(res.body)).toEqual(['customers']);
      seen.push(...res.body.customers.map((c: { id: string }) => c.id));
      path = nextPath(res);
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(made); // oldest first
    expect((await fresh.admin.get('/admin/customers').expect(200)).body.customers).toHaveLength(23);
    await fresh.admin.get('/admin/customers?limit=x').expect(422);
    await fresh.admin.get('/admin/customers?page_info=forged.cursor').expect(422);
  });

  it('needs the customers scopes', async () => {
    await t.client(null).get('/admin/customers').expect(401);
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'scoped', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
    const none = t.client(await mint(['Shop/collections/read', 'Shop/collections/write']));
    await none.get('/admin/customers').expect(403);
    await none.post('/admin/customers', { email: 'no-scope@example.com' }).expect(403);
    const reader = t.client(await mint(['Shop/customers/read']));
    await reader.get('/admin/customers').expect(200);
    const c = (await shop.admin.post('/admin/customers', { email: 'scoped@example.com' }).expect(201)).body.customer;
    await reader.get(`/admin/customers/${c.id}`).expect(200);
    await reader.put(`/admin/customers/${c.id}`, { is_active: false }).expect(403);
    await reader.delete(`/admin/customers/${c.id}`).expect(403);
    const writer = t.client(await mint(['Shop/customers/write']));
    await writer.get(`/admin/customers/${c.id}`).expect(403);
    await writer.put(`/admin/customers/${c.id}`, { is_active: false }).expect(200);
  });
});
