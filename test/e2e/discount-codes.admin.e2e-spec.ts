import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { nextPath } from '../helpers/paging.js';

const KEYS = [
  'id',
  'code',
  'type',
  'value',
  'is_active',
  'is_used',
  'is_infinite',
  'using_date',
  'currency_id',
  'expiry_date',
  'min_value',
  'is_check_all_products_for_category',
  'created_at',
  'updated_at',
].sort();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin discount codes', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let chf: string;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    chf = (await t.db.query(`SELECT id FROM currencies WHERE tenant_id = $1 AND is_default`, [shop.tenant.id]))[0].id;
  });
  afterAll(() => t.close());

  it('creates with code and value: defaults, updated_at null', async () => {
    const res = await shop.admin.post('/admin/discount_codes', { code: 'WELCOME10', value: 10 }).expect(201);
    expect(Object.keys(res.body)).toEqual(['discount_code']);
    const d = res.body.discount_code;
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: 'WELCOME10',
      type: 'value',
      value: 10,
      is_active: true,
      is_used: false,
      is_infinite: false,
      using_date: null,
      currency_id: null,
      expiry_date: null,
      min_value: 0,
      is_check_all_products_for_category: false,
      created_at: expect.stringMatching(ISO),
      updated_at: null,
    });
    expect((await shop.admin.get(`/admin/discount_codes/${d.id}`).expect(200)).body).toEqual({ discount_code: d });
  });

  it('creates with every member; decimals survive', async () => {
    const body = {
      code: 'FIX12',
      type: 'value',
      value: 12.5,
      is_active: false,
      is_infinite: true,
      currency_id: chf,
      expiry_date: '2030-12-31T23:00:00.000Z',
      min_value: 99.95,
      is_check_all_products_for_category: true,
    };
    const res = await shop.admin.post('/admin/discount_codes', body).expect(201);
    expect(res.body.discount_code).toMatchObject({ ...body, is_used: false, using_date: null });
    const pct = await shop.admin
      .post('/admin/discount_codes', { code: 'PCT', type: 'percent', value: 100, currency_id: chf, expiry_date: '2020-01-01T00:00:00Z' })
      .expect(201);
    // percent codes carry no currency; expired codes are accepted
    expect(pct.body.discount_code).toMatchObject({ type: 'percent', value: 100, currency_id: null, expiry_date: '2020-01-01T00:00:00.000Z' });
    const small = await shop.admin.post('/admin/discount_codes', { code: 'TINY', type: 'percent', value: 0.5 }).expect(201);
    expect(small.body.discount_code.value).toBe(0.5);
  });

  it.each([
    ['missing body', undefined],
    ['missing code', { value: 5 }],
    ['null code', { code: null, value: 5 }],
    ['blank code', { code: '   ', value: 5 }],
    ['code too long', { code: 'C'.repeat(101), value: 5 }],
    ['code of wrong type', { code: 123, value: 5 }],
    ['missing value', { code: 'NOVALUE' }],
    ['zero value', { code: 'ZERO', value: 0 }],
    ['negative value', { code: 'NEG', value: -5 }],
    ['value as a string', { code: 'STR', value: '5' }],
    ['percent over 100', { code: 'P101', type: 'percent', value: 100.01 }],
    ['unknown type', { code: 'TYPE', type: 'fixed', value: 5 }],
    ['negative min_value', { code: 'MIN', value: 5, min_value: -1 }],
    ['min_value as a string', { code: 'MINS', value: 5, min_value: '0' }],
    ['expiry_date not a date', { code: 'EXP', value: 5, expiry_date: 'tomorrow' }],
    ['expiry_date an impossible day', { code: 'EXP2', value: 5, expiry_date: '2030-02-30T00:00:00Z' }],
    ['is_active not a boolean', { code: 'ACT', value: 5, is_active: 'yes' }],
    ['currency_id not a uuid', { code: 'CUR', value: 5, currency_id: 'CHF' }],
    ['currency_id of no currency of the shop', { code: 'CUR2', value: 5, currency_id: '00000000-0000-4000-8000-000000000000' }],
    ['value absurdly large', { code: 'HUGE', value: 1e15 }],
    ['value with too many decimals', { code: 'DEC', value: 1.123456 }],
  ])('rejects %s with 422 and the error envelope', async (_name, body) => {
    const res = await shop.admin.post('/admin/discount_codes', body).expect(422);
    expect(res.body).toEqual({ errors: expect.any(String) });
  });

  it('issue 30: currency by ISO code is honoured or refused, never ignored', async () => {
    const imported = await shop.admin
      .post('/admin/catalogue/import', { currencies: [{ key: 'EUR', code: 'EUR', name: 'Euro', symbol: '€', rate: 1.06, published: true }] })
      .expect(200);
    const eur = imported.body.import.ids.currencies.EUR as string;
    const byCode = await shop.admin.post('/admin/discount_codes', { code: 'EURO5', value: 5, currency: 'eur' }).expect(201);
    expect(byCode.body.discount_code).toMatchObject({ value: 5, currency_id: eur });
    const both = await shop.admin.post('/admin/discount_codes', { code: 'BOTH5', value: 5, currency: 'CHF', currency_id: chf }).expect(201);
    expect(both.body.discount_code.currency_id).toBe(chf);
    const mismatch = await shop.admin.post('/admin/discount_codes', { code: 'MIX5', value: 5, currency: 'CHF', currency_id: eur }).expect(422);
    expect(mismatch.body).toMatchObject({ code: 'currency_mismatch', errors: expect.stringContaining('currency') });
    expect((await shop.admin.post('/admin/discount_codes', { code: 'USD5', value: 5, currency: 'USD' }).expect(422)).body.errors).toContain('currency USD');
    expect((await shop.admin.post('/admin/discount_codes', { code: 'BAD5', value: 5, currency: 'euro' }).expect(422)).body.errors).toContain('currency');
    const rows = await t.db.query(`SELECT code FROM discount_codes WHERE tenant_id = $1 AND code IN ('MIX5', 'USD5', 'BAD5')`, [shop.tenant.id]);
    expect(rows).toEqual([]);

    const id = byCode.body.discount_code.id as string;
    expect((await shop.admin.put(`/admin/discount_codes/${id}`, { currency: 'CHF' }).expect(200)).body.discount_code.currency_id).toBe(chf);
    expect((await shop.admin.put(`/admin/discount_codes/${id}`, { currency: 'EUR', currency_id: chf }).expect(422)).body.code).toBe('currency_mismatch');
    expect((await shop.admin.get(`/admin/discount_codes/${id}`).expect(200)).body.discount_code.currency_id).toBe(chf);
  });

  it('names value in the 422s of value', async () => {
    expect((await shop.admin.post('/admin/discount_codes', { code: 'Z', value: 0 }).expect(422)).body.errors).toContain('value');
    expect((await shop.admin.post('/admin/discount_codes', { code: 'P', type: 'percent', value: 150 }).expect(422)).body.errors).toContain('value');
    expect((await shop.admin.post('/admin/discount_codes', { code: 'M', value: 1, min_value: -0.01 }).expect(422)).body.errors).toContain('min_value');
  });

  it('rejects a duplicate code (exact match) with 422; other shops may use it', async () => {
    await shop.admin.post('/admin/discount_codes', { code: 'SUMMER', value: 5 }).expect(201);
    const res = await shop.admin.post('/admin/discount_codes', { code: 'SUMMER', value: 7 }).expect(422);
    expect(res.body.errors).toContain('SUMMER');
    await shop.admin.post('/admin/discount_codes', { code: ' SUMMER ', value: 7 }).expect(422);
    await shop.admin.post('/admin/discount_codes', { code: 'summer', value: 7 }).expect(201);
    await other.admin.post('/admin/discount_codes', { code: 'SUMMER', value: 5 }).expect(201);
  });

  it('two concurrent creates with the same code: one 201, one 422', async () => {
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([0, 1].map((i) => shop.admin.post('/admin/discount_codes', { code: `RACE${round}`, value: 5 + i })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect(results.find((r) => r.status === 422)!.body).toEqual({ errors: expect.any(String) });
    }
  });

  it('update applies only the supplied members; code and type are ignored; updated_at set', async () => {
    const d = (
      await shop.admin
        .post('/admin/discount_codes', { code: 'UPD', value: 5, currency_id: chf, min_value: 20, expiry_date: '2031-01-01T00:00:00Z' })
        .expect(201)
    ).body.discount_code;
    const res = await shop.admin.put(`/admin/discount_codes/${d.id}`, { code: 'HACKED', type: 'percent', value: 150, is_active: false }).expect(200);
    expect(res.body.discount_code).toMatchObject({
      id: d.id,
      code: 'UPD',
      type: 'value',
      value: 150,
      is_active: false,
      currency_id: chf,
      min_value: 20,
      expiry_date: '2031-01-01T00:00:00.000Z',
      created_at: d.created_at,
    });
    expect(res.body.discount_code.updated_at).toEqual(expect.stringMatching(ISO));
    // nulls: value, min_value and flags unchanged; currency and expiry cleared
    const res2 = await shop.admin
      .put(`/admin/discount_codes/${d.id}`, {
        value: null,
        min_value: null,
        is_active: null,
        is_infinite: true,
        currency_id: null,
        expiry_date: null,
        is_check_all_products_for_category: true,
      })
      .expect(200);
    expect(res2.body.discount_code).toMatchObject({
      value: 150,
      min_value: 20,
      is_active: false,
      is_infinite: true,
      currency_id: null,
      expiry_date: null,
      is_check_all_products_for_category: true,
    });
    expect((await shop.admin.get(`/admin/discount_codes/${d.id}`)).body.discount_code).toEqual(res2.body.discount_code);
  });

  it.each([
    ['missing body', undefined],
    ['zero value', { value: 0 }],
    ['percent over 100', { value: 101 }],
    ['negative min_value', { min_value: -1 }],
    ['bad expiry_date', { expiry_date: '31.12.2030' }],
    ['is_infinite not a boolean', { is_infinite: 'true' }],
  ])('update of a percent code rejects %s with 422 and changes nothing', async (_name, body) => {
    const d = (await shop.admin.post('/admin/discount_codes', { code: `U422-${Math.random().toString(36).slice(2)}`, type: 'percent', value: 20 }).expect(201))
      .body.discount_code;
    await shop.admin.put(`/admin/discount_codes/${d.id}`, body).expect(422);
    expect((await shop.admin.get(`/admin/discount_codes/${d.id}`)).body.discount_code).toEqual(d);
  });

  it('update does not validate code and type (immutable, not members of the update body): a blank code and an unknown type are ignored', async () => {
    const d = (await shop.admin.post('/admin/discount_codes', { code: 'IMMUTABLE', value: 5 }).expect(201)).body.discount_code;
    const res = await shop.admin.put(`/admin/discount_codes/${d.id}`, { code: '', type: 'bogus', value: 7 }).expect(200);
    expect(res.body.discount_code).toMatchObject({ id: d.id, code: 'IMMUTABLE', type: 'value', value: 7 });
  });

  it('delete is 204 without body, then 404; unknown 404; malformed 422', async () => {
    const d = (await shop.admin.post('/admin/discount_codes', { code: 'GONE', value: 1 }).expect(201)).body.discount_code;
    expect((await shop.admin.delete(`/admin/discount_codes/${d.id}`).expect(204)).text).toBe('');
    await shop.admin.delete(`/admin/discount_codes/${d.id}`).expect(404);
    await shop.admin.get(`/admin/discount_codes/${d.id}`).expect(404);
    await shop.admin.put(`/admin/discount_codes/${d.id}`, { value: 2 }).expect(404);
    await shop.admin.post('/admin/discount_codes', { code: 'GONE', value: 1 }).expect(201);
    await shop.admin.get('/admin/discount_codes/00000000-0000-4000-8000-000000000000').expect(404);
    await shop.admin.put('/admin/discount_codes/bad-id', { value: 2 }).expect(422);
  });

  it("another shop's code is 404 and absent from the list", async () => {
    const theirs = (await other.admin.post('/admin/discount_codes', { code: 'THEIRS', value: 3 }).expect(201)).body.discount_code;
    await shop.admin.get(`/admin/discount_codes/${theirs.id}`).expect(404);
    await shop.admin.put(`/admin/discount_codes/${theirs.id}`, { value: 9 }).expect(404);
    await shop.admin.delete(`/admin/discount_codes/${theirs.id}`).expect(404);
    expect((await shop.admin.get('/admin/discount_codes?limit=250')).body.discount_codes.map((d: { id: string }) => d.id)).not.toContain(theirs.id);
    expect((await other.admin.get(`/admin/discount_codes/${theirs.id}`).expect(200)).body.discount_code.value).toBe(3);
  });

  it('lists newest first through more than one page, expired and inactive included', async () => {
    const fresh = await t.createShop();
    const made: string[] = [];
    for (let i = 0; i < 17; i++) {
      const body = { code: `LIST${i}`, value: 1 + i, is_active: i % 2 === 0, expiry_date: i % 3 === 0 ? '2001-01-01T00:00:00Z' : null };
      made.push((await fresh.admin.post('/admin/discount_codes', body).expect(201)).body.discount_code.id);
    }
    const seen: string[] = [];
    let path: string | null = '/admin/discount_codes?limit=6';
    let pages = 0;
    while (path) {
      const res = await fresh.admin.get(path).expect(200);
      expect(Object.keys(res.body)).toEqual(['discount_codes']);
      seen.push(...res.body.discount_codes.map((d: { id: string }) => d.id));
      path = nextPath(res);
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());
    const all = (await fresh.admin.get('/admin/discount_codes').expect(200)).body.discount_codes;
    expect(all).toHaveLength(17);
    expect(all.some((d: { is_active: boolean }) => !d.is_active)).toBe(true);
    expect(all.some((d: { expiry_date: string | null }) => d.expiry_date === '2001-01-01T00:00:00.000Z')).toBe(true);
    await fresh.admin.get('/admin/discount_codes?limit=abc').expect(422);
    await fresh.admin.get('/admin/discount_codes?page_info=x.y').expect(422);
  });

  it('needs the discount_codes scopes', async () => {
    await t.client(null).get('/admin/discount_codes').expect(401);
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'scoped', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
    const none = t.client(await mint(['Shop/collections/read', 'Shop/content/write']));
    await none.get('/admin/discount_codes').expect(403);
    await none.post('/admin/discount_codes', { code: 'NOPE', value: 1 }).expect(403);
    const reader = t.client(await mint(['Shop/discount_codes/read']));
    await reader.get('/admin/discount_codes').expect(200);
    await reader.post('/admin/discount_codes', { code: 'NOPE', value: 1 }).expect(403);
    const writer = t.client(await mint(['Shop/discount_codes/write']));
    const d = (await writer.post('/admin/discount_codes', { code: 'WRITER', value: 1 }).expect(201)).body.discount_code;
    await writer.get(`/admin/discount_codes/${d.id}`).expect(403);
    await writer.put(`/admin/discount_codes/${d.id}`, { value: 2 }).expect(200);
    await writer.delete(`/admin/discount_codes/${d.id}`).expect(204);
  });
});
