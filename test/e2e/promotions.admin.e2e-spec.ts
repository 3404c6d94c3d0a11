import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { nextPath } from '../helpers/paging.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SIX_FOR_FIVE = {
  name: '6 for the price of 5',
  conditions: [{ type: 'lines', selector: [{ type: 'facet', facet: 'colour', values: ['red'] }] }],
  actions: [{ type: 'n_for_m', n: 6, m: 5, free: 'cheapest' }],
};

describe('admin promotions', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
  });
  afterAll(() => t.close());

  const outbox = (topic: string) =>
    t.db.query(`SELECT payload FROM outbox_events WHERE tenant_id = $1 AND topic = $2 ORDER BY occurred_at, id`, [shop.tenant.id, topic]) as Promise<
      Array<{ payload: { promotion: { id: string; name?: string } } }>
    >;

  it('creates with defaults, reads it back, and records promotion.created', async () => {
    const res = await shop.admin.post('/admin/promotions', SIX_FOR_FIVE).expect(201);
    expect(Object.keys(res.body)).toEqual(['promotion']);
    const p = res.body.promotion;
    expect(p).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: '6 for the price of 5',
      enabled: true,
      starts_at: null,
      ends_at: null,
      priority: 0,
      kind: 'product',
      combines_with: { product: false, order: false, shipping: false, discount_codes: false },
      usage_limit: null,
      usage_limit_per_customer: null,
      times_used: 0,
      code: null,
      conditions: SIX_FOR_FIVE.conditions,
      actions: SIX_FOR_FIVE.actions,
      created_at: expect.stringMatching(ISO),
      updated_at: null,
    });
    expect((await shop.admin.get(`/admin/promotions/${p.id}`).expect(200)).body).toEqual({ promotion: p });
    expect((await outbox('promotion.created')).map((e) => e.payload.promotion)).toEqual([p]);
  });

  it('keeps every member given, with money as decimals', async () => {
    const body = {
      name: 'Free shipping from 150 to CH',
      enabled: false,
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2026-12-31T23:00:00.000Z',
      priority: 7,
      combines_with: { product: true, order: true },
      usage_limit: 100,
      usage_limit_per_customer: 1,
      code: 'Xmas',
      conditions: [{ type: 'min_subtotal', amount: 150.5 }],
      actions: [{ type: 'shipping', countries: ['ch'] }],
    };
    const p = (await shop.admin.post('/admin/promotions', body).expect(201)).body.promotion;
    expect(p).toEqual(
      expect.objectContaining({
        enabled: false,
        starts_at: body.starts_at,
        ends_at: body.ends_at,
        priority: 7,
        kind: 'shipping',
        combines_with: { product: true, order: true, shipping: false, discount_codes: false },
        usage_limit: 100,
        usage_limit_per_customer: 1,
        code: 'Xmas',
        conditions: [{ type: 'min_subtotal', amount: 150.5 }],
        actions: [{ type: 'shipping', percent: 100, amount: null, method_ids: [], countries: ['CH'] }],
      }),
    );
  });

  it.each([
    [{ ...SIX_FOR_FIVE, name: ' ' }, /name must not be blank/],
    [{ name: 'x' }, /actions must be a list/],
    [{ name: 'x', actions: [] }, /actions must be a non-empty list/],
    [{ name: 'x', actions: [{ type: 'percent_off_lines', percent: 120 }] }, /actions\[0\]\.percent must be a percent/],
    [{ name: 'x', actions: [{ type: 'teleport' }] }, /actions\[0\]\.type must be one of/],
    [{ name: 'x', actions: [{ type: 'n_for_m', n: 3, m: 3 }] }, /actions\[0\]\.m must be below n/],
    [{ name: 'x', actions: [{ type: 'set_price', size: 6, price: 60.123456 }] }, /actions\[0\]\.price must be a decimal amount/],
    [
      {
        name: 'x',
        actions: [
          { type: 'percent_off_lines', percent: 5 },
          { type: 'percent_off_order', percent: 5 },
        ],
      },
      /actions must all be of one kind/,
    ],
    [
      {
        name: 'x',
        conditions: [{ type: 'lines', selector: [{ type: 'facet', facet: 'smell', values: ['oak'] }] }],
        actions: [{ type: 'percent_off_order', percent: 5 }],
      },
      /conditions\[0\]\.selector\[0\]\.facet must be one of/,
    ],
    [
      { name: 'x', conditions: [{ type: 'shipping_country', countries: ['CHE'] }], actions: [{ type: 'percent_off_order', percent: 5 }] },
      /conditions\[0\]\.countries must be ISO/,
    ],
    [
      { name: 'x', conditions: [{ type: 'min_quantity', quantity: 0 }], actions: [{ type: 'percent_off_order', percent: 5 }] },
      /conditions\[0\]\.quantity must be an integer/,
    ],
    [{ ...SIX_FOR_FIVE, combines_with: { product: 'yes' } }, /combines_with\.product must be a boolean/],
    [{ ...SIX_FOR_FIVE, combines_with: { everything: true } }, /combines_with\.everything is not a member/],
    [{ ...SIX_FOR_FIVE, starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }, /ends_at must be after starts_at/],
    [{ ...SIX_FOR_FIVE, usage_limit: 0 }, /usage_limit/],
    [{ ...SIX_FOR_FIVE, conditions: [{ type: 'custom', name: 'wine_club_member' }] }, /conditions\[0\]\.name: no extension provides "wine_club_member"/],
  ])('refuses %j with a 422 naming the member, and stores nothing', async (body, message) => {
    const before = (await t.db.query(`SELECT count(*)::int AS n FROM promotions WHERE tenant_id = $1`, [shop.tenant.id]))[0].n;
    const res = await shop.admin.post('/admin/promotions', body).expect(422);
    expect(res.body.errors).toMatch(message);
    expect((await t.db.query(`SELECT count(*)::int AS n FROM promotions WHERE tenant_id = $1`, [shop.tenant.id]))[0].n).toBe(before);
  });

  it('a code is unique per shop whatever its case; another shop may use it', async () => {
    await shop.admin.post('/admin/promotions', { ...SIX_FOR_FIVE, code: 'CLUB15' }).expect(201);
    expect((await shop.admin.post('/admin/promotions', { ...SIX_FOR_FIVE, code: 'club15' }).expect(422)).body.errors).toMatch(/already used/);
    await other.admin.post('/admin/promotions', { ...SIX_FOR_FIVE, code: 'club15' }).expect(201);
  });

  it('updates only the members sent, replaces the rules whole, records promotion.updated', async () => {
    const p = (await shop.admin.post('/admin/promotions', { ...SIX_FOR_FIVE, priority: 3, code: 'SIX' }).expect(201)).body.promotion;
    const res = await shop.admin
      .put(`/admin/promotions/${p.id}`, { name: 'Mixed case of 12', actions: [{ type: 'set_percent', size: 12, percent: 10 }] })
      .expect(200);
    const u = res.body.promotion;
    expect(u).toEqual({
      ...p,
      name: 'Mixed case of 12',
      actions: [{ type: 'set_percent', size: 12, percent: 10 }],
      updated_at: expect.stringMatching(ISO),
    });
    const cleared = (await shop.admin.put(`/admin/promotions/${p.id}`, { code: null, conditions: null }).expect(200)).body.promotion;
    expect([cleared.code, cleared.conditions, cleared.priority]).toEqual([null, [], 3]);
    await shop.admin.put(`/admin/promotions/${p.id}`, { actions: [{ type: 'percent_off_lines', percent: 0 }] }).expect(422);
    const events = await outbox('promotion.updated');
    expect(events.filter((e) => e.payload.promotion.id === p.id).map((e) => e.payload.promotion.name)).toEqual(['Mixed case of 12', 'Mixed case of 12']);
  });

  it('lists newest first with cursors; another shop sees none of them', async () => {
    const all = (await shop.admin.get('/admin/promotions?limit=250').expect(200)).body.promotions as Array<{ id: string; created_at: string }>;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const sorted = [...all].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    expect(all.map((p) => p.created_at)).toEqual(sorted.map((p) => p.created_at));
    const first = await shop.admin.get('/admin/promotions?limit=2').expect(200);
    const next = nextPath(first);
    expect(next).toBeTruthy();
    const second = await shop.admin.get(next!).expect(200);
    expect([...first.body.promotions, ...second.body.promotions].map((p: { id: string }) => p.id)).toEqual(all.slice(0, 4).map((p) => p.id));
    await other.admin.get(`/admin/promotions/${all[0].id}`).expect(404);
    await other.admin.put(`/admin/promotions/${all[0].id}`, { name: 'mine' }).expect(404);
    await other.admin.delete(`/admin/promotions/${all[0].id}`).expect(404);
  });

  it('deletes, records promotion.deleted, then 404', async () => {
    const p = (await shop.admin.post('/admin/promotions', SIX_FOR_FIVE).expect(201)).body.promotion;
    await shop.admin.delete(`/admin/promotions/${p.id}`).expect(204);
    await shop.admin.get(`/admin/promotions/${p.id}`).expect(404);
    await shop.admin.delete(`/admin/promotions/${p.id}`).expect(404);
    expect((await outbox('promotion.deleted')).map((e) => e.payload)).toEqual([{ promotion: { id: p.id } }]);
  });

  it('needs the promotions scopes', async () => {
    await t.http().get(`${API}/admin/promotions`).expect(401);
  });
});
