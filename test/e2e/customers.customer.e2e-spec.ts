import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CUSTOMER_AUTH_CACHE_TOPIC, CustomerAuthService } from '../../src/customers/auth/customer-auth.service.js';
import type { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { CacheBus } from '../../src/common/cluster/cache-bus.js';
import type { ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';
import { ADDRESS_KEYS, createCustomersApp, PASSWORD, PROFILE_KEYS, register, requireConfirmation, signIn } from './customers.helpers.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('customer tier: profile and saved addresses', () => {
  let t: TestApp;
  let mail: MemoryMailTransport;
  let shop: TestShop;
  let other: TestShop;
  let country: string;
  let foreignCountry: string;

  beforeAll(async () => {
    ({ t, mail } = await createCustomersApp());
    shop = await t.createShop();
    other = await t.createShop();
    country = (
      await t.db.query(`INSERT INTO countries (tenant_id, key, code, name) VALUES ($1, 'CH', 'CH', '{"en":"Switzerland"}') RETURNING id`, [shop.tenant.id])
    )[0].id;
    foreignCountry = (
      await t.db.query(`INSERT INTO countries (tenant_id, key, code, name) VALUES ($1, 'CH', 'CH', '{"en":"Switzerland"}') RETURNING id`, [other.tenant.id])
    )[0].id;
  });
  afterAll(() => t.close());

  /** A registered, signed-in shopper of `s`. */
  async function shopper(s: TestShop, email: string): Promise<{ id: string; me: ShopClient; token: string }> {
    const c = await register(s.storefront, email);
    const { me, token } = await signIn(t, s.storefront, email);
    return { id: c.id, me, token };
  }

  it('the journey: register, confirm (required), sign in, profile, addresses create/list/update/delete, sign out', async () => {
    await requireConfirmation(t, shop, true);
    try {
      const registered = await register(shop.storefront, 'journey@example.com', PASSWORD, { first_name: 'Jo', last_name: 'Urney' });
      await shop.storefront.post('/customer/auth/token', { email: 'journey@example.com', password: PASSWORD }).expect(403);
      const code = (await mail.take('confirm_email', 'journey@example.com')).data!.token;
      await shop.storefront.post('/customers/confirm_email', { token: code }).expect(204);
      const { me } = await signIn(t, shop.storefront, 'journey@example.com');

      const profile = (await me.get('/customers/me').expect(200)).body;
      expect(Object.keys(profile)).toEqual(['customer']);
      expect(Object.keys(profile.customer).sort()).toEqual(PROFILE_KEYS);
      expect(profile.customer).toMatchObject({ id: registered.id, email: 'journey@example.com', is_active: true, is_email_confirmed: true, type: 'Customer' });
      const billing = profile.customer.default_address;
      expect(Object.keys(billing).sort()).toEqual(ADDRESS_KEYS);
      expect(billing).toMatchObject({ first_name: 'Jo', last_name: 'Urney' });

      // list: the billing address made at registration
      let list = (await me.get('/customers/me/addresses').expect(200)).body;
      expect(Object.keys(list)).toEqual(['addresses']);
      expect(list.addresses).toEqual([billing]);

      // create
      const body = {
        first_name: 'Jo',
        last_name: 'Urney',
        company: 'Cellar AG',
        street: 'Weinweg',
        house_number: '12b',
        zip_code: '8000',
        location: 'Zürich',
        country_id: country,
        phone_number: '+41 44 000 00 00',
        email: 'deliveries@example.com',
      };
      const created = await me.post('/customers/me/addresses', body).expect(201);
      expect(Object.keys(created.body)).toEqual(['address']);
      const shipping = created.body.address;
      expect(Object.keys(shipping).sort()).toEqual(ADDRESS_KEYS);
      expect(shipping).toEqual({ id: expect.any(String), department: null, mobile_number: null, fax_number: null, website: null, title_id: null, ...body });
      list = (await me.get('/customers/me/addresses').expect(200)).body;
      expect(list.addresses).toHaveLength(2);
      // not the billing address: the registration one stays default
      expect((await me.get('/customers/me').expect(200)).body.customer.default_address.id).toBe(billing.id);

      // update: members sent are applied, null clears, absent stays
      const updated = (await me.put(`/customers/me/addresses/${shipping.id}`, { house_number: '14', company: null, title_id: UNKNOWN }).expect(200)).body;
      expect(Object.keys(updated)).toEqual(['address']);
      expect(updated.address).toEqual({ ...shipping, house_number: '14', company: null, title_id: UNKNOWN });
      expect((await me.put(`/customers/me/addresses/${shipping.id}`, {}).expect(200)).body.address).toEqual(updated.address);
      // updating the billing address shows in the profile (and in the admin's view)
      await me.put(`/customers/me/addresses/${billing.id}`, { street: 'Hauptstrasse', house_number: '1' }).expect(200);
      expect((await me.get('/customers/me').expect(200)).body.customer.default_address).toMatchObject({
        id: billing.id,
        street: 'Hauptstrasse',
        house_number: '1',
      });
      expect((await shop.admin.get(`/admin/customers/${registered.id}`).expect(200)).body.customer.default_address).toMatchObject({
        id: billing.id,
        street: 'Hauptstrasse',
      });

      // delete
      await me.delete(`/customers/me/addresses/${shipping.id}`).expect(204);
      await me.delete(`/customers/me/addresses/${shipping.id}`).expect(404);
      expect((await me.get('/customers/me/addresses').expect(200)).body.addresses.map((a: { id: string }) => a.id)).toEqual([billing.id]);

      // sign out
      await me.delete('/customer/auth/token').expect(204);
      await me.get('/customers/me').expect(401);
    } finally {
      await requireConfirmation(t, shop, false);
    }
  });

  it('an empty address list is []; the first saved address becomes the billing address; deleting it clears default_address', async () => {
    const { id, me } = await shopper(shop, 'first-address@example.com');
    // SPEC: default_address is not nullable: without a billing address it is the blank address (id = the shopper's id)
    const blank = { ...Object.fromEntries(ADDRESS_KEYS.map((k) => [k, null])), id };
    expect((await me.get('/customers/me').expect(200)).body.customer.default_address).toEqual(blank);
    expect((await me.get('/customers/me/addresses').expect(200)).body).toEqual({ addresses: [] });
    const a = (await me.post('/customers/me/addresses', { street: 'Erste' }).expect(201)).body.address;
    const b = (await me.post('/customers/me/addresses', { street: 'Zweite' }).expect(201)).body.address;
    expect((await me.get('/customers/me').expect(200)).body.customer.default_address).toEqual(a);
    await me.delete(`/customers/me/addresses/${a.id}`).expect(204);
    expect((await me.get('/customers/me').expect(200)).body.customer.default_address).toEqual(blank);
    expect((await me.get('/customers/me/addresses').expect(200)).body.addresses).toEqual([b]);
  });

  it('refuses bad address input with 422: empty create, wrong types, unknown or foreign country, malformed ids', async () => {
    const { me } = await shopper(shop, 'bad-input@example.com');
    await me.post('/customers/me/addresses', {}).expect(422);
    await me.post('/customers/me/addresses', { first_name: null }).expect(422);
    await me.post('/customers/me/addresses').expect(422);
    expect((await me.post('/customers/me/addresses', { street: 12 }).expect(422)).body.errors).toMatch(/street/);
    expect((await me.post('/customers/me/addresses', { country_id: 'CH' }).expect(422)).body.errors).toMatch(/country_id/);
    expect((await me.post('/customers/me/addresses', { country_id: foreignCountry }).expect(422)).body.errors).toBe('country_id is not a country of this shop');
    await me.post('/customers/me/addresses', { country_id: UNKNOWN }).expect(422);
    const a = (await me.post('/customers/me/addresses', { street: 'Weg' }).expect(201)).body.address;
    await me.put(`/customers/me/addresses/${a.id}`, { country_id: foreignCountry }).expect(422);
    await me.put(`/customers/me/addresses/${a.id}`, { zip_code: 8000 }).expect(422);
    await me.put(`/customers/me/addresses/${a.id}`, '[1]').set('Content-Type', 'application/json').expect(422);
    await me.put('/customers/me/addresses/not-a-uuid', { street: 'x' }).expect(422);
    await me.delete('/customers/me/addresses/not-a-uuid').expect(422);
    expect((await me.put(`/customers/me/addresses/${a.id}`, { country_id: null }).expect(200)).body.address.country_id).toBeNull();
  });

  it('404 for an unknown address id on update and delete', async () => {
    const { me } = await shopper(shop, 'unknown-id@example.com');
    expect((await me.put(`/customers/me/addresses/${UNKNOWN}`, { street: 'x' }).expect(404)).body).toEqual({ errors: 'address not found' });
    await me.delete(`/customers/me/addresses/${UNKNOWN}`).expect(404);
  });

  it("a second shopper sees none of the first's data: its own profile, its own list, 404 on the first's address", async () => {
    const first = await shopper(shop, 'first@example.com');
    const second = await shopper(shop, 'second@example.com');
    const mine = (await first.me.post('/customers/me/addresses', { street: 'Private 1' }).expect(201)).body.address;
    expect((await second.me.get('/customers/me').expect(200)).body.customer).toMatchObject({
      id: second.id,
      email: 'second@example.com',
      default_address: { id: second.id, street: null },
    });
    expect((await second.me.get('/customers/me/addresses').expect(200)).body.addresses).toEqual([]);
    await second.me.put(`/customers/me/addresses/${mine.id}`, { street: 'Stolen' }).expect(404);
    await second.me.delete(`/customers/me/addresses/${mine.id}`).expect(404);
    expect((await first.me.get('/customers/me/addresses').expect(200)).body.addresses).toEqual([mine]);
  });

  it("a foreign shop's shopper: its token names its own shop, so this shop's addresses are 404 and its own data is all it sees", async () => {
    const here = await shopper(shop, 'here@example.com');
    const addr = (await here.me.post('/customers/me/addresses', { street: 'Here 1' }).expect(201)).body.address;
    const there = await shopper(other, 'here@example.com'); // same email, another shop, another customer
    expect(there.id).not.toBe(here.id);
    expect((await there.me.get('/customers/me').expect(200)).body.customer.id).toBe(there.id);
    expect((await there.me.get('/customers/me/addresses').expect(200)).body.addresses).toEqual([]);
    await there.me.put(`/customers/me/addresses/${addr.id}`, { street: 'x' }).expect(404);
    await there.me.delete(`/customers/me/addresses/${addr.id}`).expect(404);
    // the shopper token on the storefront tier also names its shop: signing in "again" there uses that shop
    await there.me.post('/customer/auth/token', { email: 'here@example.com', password: PASSWORD }).expect(200);
    // the other shop's admin cannot see this shop's customer
    await other.admin.get(`/admin/customers/${here.id}`).expect(404);
  });

  it('401 without a token, with an unknown, malformed, expired or revoked shopper token, or a token of another tier', async () => {
    const s = await shopper(shop, 'tokens@example.com');
    await t.client(null).get('/customers/me').expect(401);
    await t
      .client('vnscat_' + 'A'.repeat(40))
      .get('/customers/me')
      .expect(401);
    await t.client('garbage').get('/customers/me').expect(401);
    await t
      .client(s.token + 'x')
      .get('/customers/me')
      .expect(401);
    await shop.storefront.get('/customers/me').expect(401); // vnstss_
    await shop.admin.get('/customers/me').expect(401); // vnstat_
    await shop.admin.get('/customers/me/addresses').expect(401);
    // a shopper token on the admin tier
    await s.me.get('/admin/customers').expect(401);

    // expired (set in the past with SQL)
    const expiring = await signIn(t, shop.storefront, 'tokens@example.com');
    await expiring.me.get('/customers/me').expect(200);
    await t.db.query(
      `UPDATE customer_tokens SET expires_at = now() - interval '1 second' WHERE customer_id = $1 AND revoked_at IS NULL AND expires_at > now() AND created_at = (SELECT max(created_at) FROM customer_tokens WHERE customer_id = $1)`,
      [s.id],
    );
    // a change made outside the service reaches every instance's resolved tokens through the database's notification
    await until('the expiry is heard', async () => (await expiring.me.get('/customers/me')).status === 401, 1_000);
    const expired = await expiring.me.get('/customers/me').expect(401);
    expect(expired.body).toEqual({ errors: 'the access token is unknown, expired or revoked' });
    await expiring.me.get('/customers/me/addresses').expect(401);
    await s.me.get('/customers/me').expect(200); // the first token is still live

    // revoked (by SQL, as an operator would)
    await t.db.query(`UPDATE customer_tokens SET revoked_at = now() WHERE customer_id = $1`, [s.id]);
    await until('the revocation is heard', async () => (await s.me.get('/customers/me')).status === 401, 1_000);
    await s.me.post('/customers/me/addresses', { street: 'x' }).expect(401);
  });

  it("reuses a resolved shopper token while the cache bus listens; the service's own changes apply at once, any other within a second", async () => {
    const auth = t.get(CustomerAuthService);
    const bus = t.get(CacheBus);
    const s = await shopper(shop, 'cached@example.com');
    const first = await auth.resolve(s.token);
    expect(first).toMatchObject({ kind: 'customer', customerId: s.id, tenantId: shop.tenant.id, active: true });
    // the same frozen principal, not a second lookup
    expect(await auth.resolve(s.token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // a lookup that began before a drop does not store what it read
    auth.forget(shop.tenant.id);
    const racing = auth.resolve(s.token);
    await bus.publish(CUSTOMER_AUTH_CACHE_TOPIC, shop.tenant.id);
    const raced = await racing;
    expect(raced).toEqual(first);
    expect(await auth.resolve(s.token)).not.toBe(raced);
    // the admin disabling the account: at once here (the next request), and for the others through the trigger
    const cached = await auth.resolve(s.token);
    expect(await auth.resolve(s.token)).toBe(cached);
    await shop.admin.put(`/admin/customers/${s.id}`, { is_active: false }).expect(200);
    await s.me.get('/customers/me/addresses').expect(403);
    await shop.admin.put(`/admin/customers/${s.id}`, { is_active: true }).expect(200);
    await s.me.get('/customers/me/addresses').expect(200);
    // plain SQL (a job, an operator): the database notifies every instance at commit
    await auth.resolve(s.token);
    await t.db.query(`UPDATE customers SET is_active = false WHERE id = $1`, [s.id]);
    await until('the disabled account is heard', async () => !(await isActive()), 1_000);
    await t.db.query(`UPDATE customers SET is_active = true WHERE id = $1`, [s.id]);
    await until('the enabled account is heard', async () => isActive(), 1_000);
    // sign-out: refused at once
    await s.me.get('/customers/me').expect(200);
    await s.me.delete('/customer/auth/token').expect(204);
    await s.me.get('/customers/me').expect(401);
    expect(await auth.resolve(s.token)).toBeNull();
    // even a TRUNCATE (no rows to name a tenant: every tenant's resolved shopper tokens are dropped)
    const again = await signIn(t, shop.storefront, 'cached@example.com');
    const held = await auth.resolve(again.token);
    expect(await auth.resolve(again.token)).toBe(held);
    await t.db.query(`TRUNCATE customer_tokens`);
    await until('the truncation is heard', async () => (await auth.resolve(again.token)) === null, 1_000);

    async function isActive(): Promise<boolean> {
      const p = await auth.resolve(s.token);
      return p?.kind === 'customer' && p.active;
    }
  });

  it('a disabled account reads its own profile (and may sign in and out) but nothing else: 403 account_disabled', async () => {
    const s = await shopper(shop, 'disabled@example.com');
    const addr = (await s.me.post('/customers/me/addresses', { street: 'Before' }).expect(201)).body.address;
    await shop.admin.put(`/admin/customers/${s.id}`, { is_active: false }).expect(200);

    const profile = (await s.me.get('/customers/me').expect(200)).body.customer;
    expect(profile).toMatchObject({ id: s.id, is_active: false, default_address: addr });
    for (const res of [
      await s.me.get('/customers/me/addresses'),
      await s.me.post('/customers/me/addresses', { street: 'x' }),
      await s.me.put(`/customers/me/addresses/${addr.id}`, { street: 'x' }),
      await s.me.delete(`/customers/me/addresses/${addr.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ errors: 'the account is disabled: only its profile can be read', code: 'account_disabled' });
    }
    const again = await signIn(t, shop.storefront, 'disabled@example.com');
    await again.me.get('/customers/me').expect(200);
    await again.me.delete('/customer/auth/token').expect(204);

    await shop.admin.put(`/admin/customers/${s.id}`, { is_active: true }).expect(200);
    expect((await s.me.get('/customers/me/addresses').expect(200)).body.addresses).toEqual([addr]);
  });

  it('shows the type in the customer tier spelling (Customer, Corporate, Reseller) as the admin changes it', async () => {
    const s = await shopper(shop, 'typed@example.com');
    for (const [admin, tier] of [
      ['corporate', 'Corporate'],
      ['reseller', 'Reseller'],
      ['customer', 'Customer'],
    ]) {
      await shop.admin.put(`/admin/customers/${s.id}`, { type: admin }).expect(200);
      expect((await s.me.get('/customers/me').expect(200)).body.customer.type).toBe(tier);
    }
  });

  it('an admin deleting the customer ends its sessions (401) and frees the email for a new registration', async () => {
    const s = await shopper(shop, 'deleted@example.com');
    await shop.admin.delete(`/admin/customers/${s.id}`).expect(204);
    await s.me.get('/customers/me').expect(401);
    await register(shop.storefront, 'deleted@example.com');
  });

  it('documents the shopper routes, their bodies and envelopes in OpenAPI', async () => {
    const doc = (await t.http().get('/api/2026-04-01/openapi.json').expect(200)).body;
    const ops: Record<string, string[]> = {
      '/customers': ['post'],
      '/customers/recover': ['post'],
      '/customers/reset_password': ['post'],
      '/customers/confirm_email': ['post'],
      '/customer/auth/token': ['post', 'delete'],
      '/customers/me': ['get'],
      '/customers/me/addresses': ['get', 'post'],
      '/customers/me/addresses/{id}': ['put', 'delete'],
    };
    for (const [path, methods] of Object.entries(ops)) for (const m of methods) expect(doc.paths[`/api/2026-04-01${path}`]?.[m]).toBeDefined();
    expect(doc.components.schemas.RegisterCustomerDto.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(doc.components.schemas.SignInDto.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(Object.keys(doc.components.schemas.SavedAddressDto.properties).sort()).toEqual(ADDRESS_KEYS);
    expect(Object.keys(doc.components.schemas.ProfileDto.properties).sort()).toEqual(PROFILE_KEYS);
    const envelope = (path: string, method: string, status: string) =>
      doc.paths[`/api/2026-04-01${path}`][method].responses[status].content['application/json'].schema.properties;
    expect(Object.keys(envelope('/customer/auth/token', 'post', '200'))).toEqual(['customer_access_token']);
    expect(Object.keys(envelope('/customers', 'post', '201'))).toEqual(['customer']);
    expect(Object.keys(envelope('/customers/me/addresses', 'get', '200'))).toEqual(['addresses']);
    expect(doc.paths['/api/2026-04-01/customers/me'].get.security).toEqual([{ customer: [] }]);
  });
});
