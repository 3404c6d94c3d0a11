import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { nextPath } from '../helpers/paging.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

const KEYS = ['id', 'key', 'name', 'countries', 'regions', 'postcodes', 'excise_currency', 'excise_in_vat_base', 'created_at', 'updated_at'].sort();

describe('admin tax zones', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
  });
  afterAll(() => t.close());

  const topics = async (id: string): Promise<string[]> =>
    (
      await t.db.query(`SELECT topic FROM outbox_events WHERE tenant_id = $1 AND payload->'tax_zone'->>'id' = $2 ORDER BY occurred_at, id`, [
        shop.tenant.id,
        id,
      ])
    ).map((r: { topic: string }) => r.topic);

  it('creates, reads, updates and deletes a zone, each with its event', async () => {
    const res = await shop.admin
      .post('/admin/tax_zones', {
        name: ' Germany without Heligoland ',
        key: 'de',
        countries: ['de'],
        regions: ['es-cn'],
        postcodes: [
          { country: 'de', pattern: '27498' },
          { country: 'DE', pattern: '27498' },
          { country: 'IT', pattern: '22060..22061' },
        ],
      })
      .expect(201);
    expect(Object.keys(res.body)).toEqual(['tax_zone']);
    const z = res.body.tax_zone;
    expect(Object.keys(z).sort()).toEqual(KEYS);
    expect(z).toMatchObject({
      key: 'de',
      name: 'Germany without Heligoland',
      countries: ['DE'],
      regions: ['ES-CN'],
      postcodes: [
        { country: 'DE', pattern: '27498' },
        { country: 'IT', pattern: '22060..22061' },
      ],
      updated_at: null,
    });
    expect((await shop.admin.get(`/admin/tax_zones/${z.id}`).expect(200)).body).toEqual({ tax_zone: z });

    const upd = (await shop.admin.put(`/admin/tax_zones/${z.id}`, { name: 'Germany', postcodes: [] }).expect(200)).body.tax_zone;
    expect(upd).toMatchObject({ name: 'Germany', countries: ['DE'], regions: ['ES-CN'], postcodes: [], key: 'de' });
    expect(upd.updated_at).not.toBeNull();

    await shop.admin.delete(`/admin/tax_zones/${z.id}`).expect(204);
    await shop.admin.get(`/admin/tax_zones/${z.id}`).expect(404);
    await shop.admin.delete(`/admin/tax_zones/${z.id}`).expect(404);
    expect(await topics(z.id)).toEqual(['tax_zone.created', 'tax_zone.updated', 'tax_zone.deleted']);
  });

  it('refuses bad input with 422 naming the member, and changes nothing', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ name: 'x', countries: ['XX'] }, /countries\[0\]/],
      [{ name: 'x', countries: ['DE', 'Germany'] }, /countries/],
      [{ name: 'x', regions: ['Canaries'] }, /regions\[0\]/],
      [{ name: 'x', regions: ['QQ-AB'] }, /regions\[0\]/],
      [{ name: 'x', postcodes: [{ country: 'DE', pattern: '2*7' }] }, /postcodes\[0\]\.pattern/],
      [{ name: 'x', postcodes: [{ country: 'DE', pattern: '22061..22060' }] }, /postcodes\[0\]\.pattern/],
      [{ name: 'x', postcodes: [{ country: 'ZZ', pattern: '1' }] }, /postcodes\[0\]\.country/],
      [{ name: 'x', postcodes: ['27498'] }, /postcodes/],
      [{ name: ' ', countries: ['DE'] }, /name/],
      [{ countries: ['DE'] }, /name/],
      [{ name: 'x' }, /at least one/],
      [{ name: 'x', countries: 'DE' }, /countries/],
    ];
    for (const [body, message] of cases) {
      const res = await shop.admin.post('/admin/tax_zones', body).expect(422);
      expect(res.body.errors).toMatch(message);
    }
    expect((await shop.admin.get('/admin/tax_zones').expect(200)).body.tax_zones).toEqual([]);
  });

  it('a taken key is 422; a foreign zone is 404', async () => {
    const a = (await shop.admin.post('/admin/tax_zones', { name: 'A', key: 'a', countries: ['FR'] }).expect(201)).body.tax_zone;
    const b = (await shop.admin.post('/admin/tax_zones', { name: 'B', key: 'b', countries: ['IT'] }).expect(201)).body.tax_zone;
    expect((await shop.admin.post('/admin/tax_zones', { name: 'A2', key: 'a', countries: ['FR'] }).expect(422)).body.errors).toMatch(/key/);
    await shop.admin.put(`/admin/tax_zones/${b.id}`, { key: 'a' }).expect(422);
    await other.admin.get(`/admin/tax_zones/${a.id}`).expect(404);
    await other.admin.put(`/admin/tax_zones/${a.id}`, { name: 'mine' }).expect(404);
    await other.admin.delete(`/admin/tax_zones/${a.id}`).expect(404);
    await shop.admin.get('/admin/tax_zones/not-a-uuid').expect(422);
    await shop.admin.delete(`/admin/tax_zones/${a.id}`).expect(204);
    await shop.admin.delete(`/admin/tax_zones/${b.id}`).expect(204);
  });

  it('lists oldest first, cursored', async () => {
    const ids: string[] = [];
    for (const c of ['AT', 'BE', 'NL']) ids.push((await shop.admin.post('/admin/tax_zones', { name: c, countries: [c] }).expect(201)).body.tax_zone.id);
    const first = await shop.admin.get('/admin/tax_zones?limit=2').expect(200);
    const next = nextPath(first);
    expect(next).toBeTruthy();
    const second = await shop.admin.get(next!).expect(200);
    expect([...first.body.tax_zones, ...second.body.tax_zones].map((z: { id: string }) => z.id)).toEqual(ids);
    for (const id of ids) await shop.admin.delete(`/admin/tax_zones/${id}`).expect(204);
  });

  it('takes 10,000 postcode patterns in one zone, and refuses more', async () => {
    const postcodes = Array.from({ length: 10_000 }, (_, i) => ({ country: 'DE', pattern: String(10000 + i) }));
    const z = (await shop.admin.post('/admin/tax_zones', { name: 'many', postcodes }).expect(201)).body.tax_zone;
    expect(z.postcodes).toHaveLength(10_000);
    await shop.admin.post('/admin/tax_zones', { name: 'too many', postcodes: [...postcodes, { country: 'DE', pattern: '1' }] }).expect(422);
    await shop.admin.delete(`/admin/tax_zones/${z.id}`).expect(204);
  });

  it('needs Shop/settings scopes: 403 without, write does not imply read', async () => {
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'scoped', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
    const writer = t.client(await mint(['Shop/settings/write']));
    const reader = t.client(await mint(['Shop/settings/read']));
    const none = t.client(await mint(['Shop/collections/read']));
    await writer.get('/admin/tax_zones').expect(403);
    await none.get('/admin/tax_zones').expect(403);
    await reader.post('/admin/tax_zones', { name: 'x', countries: ['DE'] }).expect(403);
    const z = (await writer.post('/admin/tax_zones', { name: 'x', countries: ['DE'] }).expect(201)).body.tax_zone;
    await reader.get(`/admin/tax_zones/${z.id}`).expect(200);
    await t.client(null).get('/admin/tax_zones').expect(401);
    await writer.delete(`/admin/tax_zones/${z.id}`).expect(204);
  });
});
