import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TenancyService } from '../../src/tenancy/tenancy.service.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { nextPath, pageInfoOf } from '../helpers/paging.js';

const COLLECTION_KEYS = [
  'id',
  'title',
  'handle',
  'body_html',
  'collection_type',
  'published',
  'sort_order',
  'products_count',
  'image',
  'template_name',
  'rules_json',
  'meta_title',
  'meta_description',
  'created_at',
  'updated_at',
].sort();
/** SPEC Image: id is a uuid (the owner's id, as the image lives in its row) even while there is no image. */
const EMPTY_IMAGE = { id: expect.stringMatching(/^[0-9a-f-]{36}$/), src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };
const RULES = '{"all":[{"field":"category","eq":"red"},{"field":"price","lt":20}]}';

describe('admin collections', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    await t.get(TenancyService).updateSettings(t.db.manager, shop.tenant.id, { default_language: 'en', languages: ['en', 'de'] });
  });
  afterAll(() => t.close());

  it('creates with only a title: defaults, generated handle, empty image, updated_at null', async () => {
    const res = await shop.admin.post('/admin/collections', { title: 'Summer Wines!' }).expect(201);
    expect(Object.keys(res.body)).toEqual(['collection']);
    const c = res.body.collection;
    expect(Object.keys(c).sort()).toEqual(COLLECTION_KEYS);
    expect(c).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Summer Wines!',
      handle: 'summer-wines',
      body_html: null,
      collection_type: 'manual',
      published: true,
      sort_order: null,
      products_count: 0,
      image: EMPTY_IMAGE,
      template_name: null,
      rules_json: null,
      meta_title: null,
      meta_description: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: null,
    });
    const again = await shop.admin.get(`/admin/collections/${c.id}`).expect(200);
    expect(again.body).toEqual({ collection: c });
  });

  it('generates a free handle when the title slug is taken', async () => {
    const a = await shop.admin.post('/admin/collections', { title: 'Crème Brûlée' }).expect(201);
    const b = await shop.admin.post('/admin/collections', { title: 'Creme brulee' }).expect(201);
    const c = await shop.admin.post('/admin/collections', { title: 'crème brûlée' }).expect(201);
    expect([a.body.collection.handle, b.body.collection.handle, c.body.collection.handle]).toEqual(['creme-brulee', 'creme-brulee-2', 'creme-brulee-3']);
  });

  it('creates with every member and reads it back', async () => {
    const body = {
      title: 'Reds under 20',
      handle: 'cheap-reds',
      body_html: '<p>Bargains</p>',
      collection_type: 'smart',
      published: false,
      sort_order: 'price-asc',
      template_name: 'collection.reds',
      rules_json: RULES,
      meta_title: 'Cheap reds',
      meta_description: 'Red wines under 20',
    };
    const res = await shop.admin.post('/admin/collections', body).expect(201);
    expect(res.body.collection).toMatchObject({ ...body, products_count: 0, image: EMPTY_IMAGE, updated_at: null });
    const got = await shop.admin.get(`/admin/collections/${res.body.collection.id}`).expect(200);
    expect(got.body.collection).toEqual(res.body.collection);
  });

  it('stores no rules for manual collections', async () => {
    const res = await shop.admin.post('/admin/collections', { title: 'Manual with rules', rules_json: RULES }).expect(201);
    expect(res.body.collection.rules_json).toBeNull();
    const upd = await shop.admin.put(`/admin/collections/${res.body.collection.id}`, { rules_json: RULES }).expect(200);
    expect(upd.body.collection.rules_json).toBeNull();
  });

  it.each([
    ['missing body', undefined],
    ['body not an object', [1, 2]],
    ['missing title', { handle: 'no-title' }],
    ['null title', { title: null }],
    ['blank title', { title: '   ' }],
    ['title of wrong type', { title: 42 }],
    ['title too long', { title: 'x'.repeat(256) }],
    ['unknown collection_type', { title: 'x', collection_type: 'automatic' }],
    ['published not a boolean', { title: 'x', published: 'yes' }],
    ['unknown sort_order', { title: 'x', sort_order: 'random' }],
    ['handle with a space', { title: 'x', handle: 'two words' }],
    ['handle with a slash', { title: 'x', handle: 'a/b' }],
    ['handle too long', { title: 'x', handle: 'h'.repeat(256) }],
    ['meta_title too long', { title: 'x', meta_title: 'm'.repeat(256) }],
    ['smart rules_json not JSON', { title: 'x', collection_type: 'smart', rules_json: '{all: [' }],
    ['smart rules_json not the rules format', { title: 'x', collection_type: 'smart', rules_json: '[1, 2]' }],
    ['smart rules_json with an unknown field', { title: 'x', collection_type: 'smart', rules_json: '{"all":[{"field":"colour","eq":"red"}]}' }],
    ['smart rules_json with an unknown operator', { title: 'x', collection_type: 'smart', rules_json: '{"any":[{"field":"price","between":[1,2]}]}' }],
  ])('rejects %s with 422 and the error envelope', async (_name, body) => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM collections WHERE tenant_id = $1', [shop.tenant.id]);
    const res = await shop.admin.post('/admin/collections', body).expect(422);
    expect(res.body).toEqual({ errors: expect.any(String) });
    const after = await t.db.query('SELECT count(*)::int AS n FROM collections WHERE tenant_id = $1', [shop.tenant.id]);
    expect(after[0].n).toBe(before[0].n);
  });

  it('names the offending member in a 422', async () => {
    expect((await shop.admin.post('/admin/collections', {}).expect(422)).body.errors).toContain('title');
    expect((await shop.admin.post('/admin/collections', { title: 'x', collection_type: 'smart', rules_json: 'nope' }).expect(422)).body.errors).toContain(
      'rules_json',
    );
  });

  it('a smart collection may be created without rules', async () => {
    const res = await shop.admin.post('/admin/collections', { title: 'Smart empty', collection_type: 'smart' }).expect(201);
    expect(res.body.collection).toMatchObject({ collection_type: 'smart', rules_json: null });
  });

  it('rejects a duplicate handle (any case) with 422', async () => {
    await shop.admin.post('/admin/collections', { title: 'A', handle: 'dup-handle' }).expect(201);
    const res = await shop.admin.post('/admin/collections', { title: 'B', handle: 'DUP-Handle' }).expect(422);
    expect(res.body.errors).toContain('handle');
    // another shop may use it
    await other.admin.post('/admin/collections', { title: 'B', handle: 'dup-handle' }).expect(201);
  });

  it('two concurrent creates with the same handle: one 201, one 422', async () => {
    for (let round = 0; round < 3; round++) {
      const handle = `race-${round}`;
      const results = await Promise.all([0, 1].map((i) => shop.admin.post('/admin/collections', { title: `Race ${i}`, handle })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect(results.find((r) => r.status === 422)!.body).toEqual({ errors: expect.any(String) });
    }
  });

  it('two concurrent creates with the same title both get a handle', async () => {
    const results = await Promise.all([0, 1, 2].map(() => shop.admin.post('/admin/collections', { title: 'Same Title Race' })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(results.map((r) => r.body.collection.handle)).size).toBe(3);
  });

  it('update applies only the supplied members; collection_type is ignored; updated_at is set', async () => {
    const created = (
      await shop.admin.post('/admin/collections', { title: 'Before', body_html: '<p>b</p>', meta_title: 'mt', sort_order: 'manual' }).expect(201)
    ).body.collection;
    const res = await shop.admin.put(`/admin/collections/${created.id}`, { title: 'After', collection_type: 'smart', published: false }).expect(200);
    const c = res.body.collection;
    expect(c).toMatchObject({
      id: created.id,
      title: 'After',
      body_html: '<p>b</p>',
      meta_title: 'mt',
      sort_order: 'manual',
      collection_type: 'manual',
      published: false,
      handle: created.handle,
    });
    expect(c.created_at).toBe(created.created_at);
    expect(c.updated_at).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(Date.parse(c.updated_at)).toBeGreaterThanOrEqual(Date.parse(c.created_at));
    // null published is no change; nullable strings can be cleared
    const res2 = await shop.admin
      .put(`/admin/collections/${created.id}`, { published: null, meta_title: null, sort_order: null, handle: 'after-handle' })
      .expect(200);
    expect(res2.body.collection).toMatchObject({ published: false, meta_title: null, sort_order: null, handle: 'after-handle' });
    expect((await shop.admin.get(`/admin/collections/${created.id}`).expect(200)).body.collection).toEqual(res2.body.collection);
  });

  it('update does not validate collection_type (immutable, not a member of the update body): an unknown one is ignored', async () => {
    const created = (await shop.admin.post('/admin/collections', { title: 'Typed' }).expect(201)).body.collection;
    const res = await shop.admin.put(`/admin/collections/${created.id}`, { collection_type: 'bogus', title: 'Typed again' }).expect(200);
    expect(res.body.collection).toMatchObject({ id: created.id, title: 'Typed again', collection_type: 'manual' });
  });

  it('update of a smart collection validates rules_json', async () => {
    const smart = (await shop.admin.post('/admin/collections', { title: 'Smart', collection_type: 'smart', rules_json: RULES }).expect(201)).body.collection;
    await shop.admin.put(`/admin/collections/${smart.id}`, { rules_json: 'not json' }).expect(422);
    const newRules = '{"any":[{"field":"tag","contains":"organic"}]}';
    const res = await shop.admin.put(`/admin/collections/${smart.id}`, { rules_json: newRules, collection_type: 'manual' }).expect(200);
    expect(res.body.collection).toMatchObject({ rules_json: newRules, collection_type: 'smart' });
  });

  it.each([
    ['missing body', undefined],
    ['null title', { title: null }],
    ['blank title', { title: ' ' }],
    ['bad published', { published: 'no' }],
    ['bad sort_order', { sort_order: 'sideways' }],
    ['null handle', { handle: null }],
    ['bad handle', { handle: 'a b' }],
    ['body_html of wrong type', { body_html: 5 }],
  ])('update rejects %s with 422', async (_name, body) => {
    const created = (await shop.admin.post('/admin/collections', { title: 'Upd 422' }).expect(201)).body.collection;
    await shop.admin.put(`/admin/collections/${created.id}`, body).expect(422);
    expect((await shop.admin.get(`/admin/collections/${created.id}`)).body.collection).toEqual(created);
  });

  it('update to a handle taken by another collection is 422; keeping its own handle (other case) is fine', async () => {
    const a = (await shop.admin.post('/admin/collections', { title: 'Taken A', handle: 'taken-a' }).expect(201)).body.collection;
    const b = (await shop.admin.post('/admin/collections', { title: 'Taken B', handle: 'taken-b' }).expect(201)).body.collection;
    await shop.admin.put(`/admin/collections/${b.id}`, { handle: 'Taken-A' }).expect(422);
    const res = await shop.admin.put(`/admin/collections/${a.id}`, { handle: 'Taken-A' }).expect(200);
    expect(res.body.collection.handle).toBe('Taken-A');
  });

  it('delete is 204 without body, then 404 for every verb', async () => {
    const c = (await shop.admin.post('/admin/collections', { title: 'Doomed' }).expect(201)).body.collection;
    const del = await shop.admin.delete(`/admin/collections/${c.id}`).expect(204);
    expect(del.text).toBe('');
    await shop.admin.delete(`/admin/collections/${c.id}`).expect(404);
    const res = await shop.admin.get(`/admin/collections/${c.id}`).expect(404);
    expect(res.body).toEqual({ errors: expect.any(String) });
    await shop.admin.put(`/admin/collections/${c.id}`, { title: 'x' }).expect(404);
  });

  it('unknown ids are 404, malformed ids 422', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await shop.admin.get(`/admin/collections/${unknown}`).expect(404);
    await shop.admin.put(`/admin/collections/${unknown}`, { title: 'x' }).expect(404);
    await shop.admin.delete(`/admin/collections/${unknown}`).expect(404);
    expect((await shop.admin.get('/admin/collections/not-a-uuid').expect(422)).body.errors).toContain('id');
  });

  it("another shop's collection is 404 and absent from the list", async () => {
    const theirs = (await other.admin.post('/admin/collections', { title: 'Theirs' }).expect(201)).body.collection;
    await shop.admin.get(`/admin/collections/${theirs.id}`).expect(404);
    await shop.admin.put(`/admin/collections/${theirs.id}`, { title: 'Mine now' }).expect(404);
    await shop.admin.delete(`/admin/collections/${theirs.id}`).expect(404);
    const list = await shop.admin.get('/admin/collections?limit=250').expect(200);
    expect(list.body.collections.map((c: { id: string }) => c.id)).not.toContain(theirs.id);
    expect((await other.admin.get(`/admin/collections/${theirs.id}`).expect(200)).body.collection.title).toBe('Theirs');
  });

  it('texts are stored per language: created in de, read in en falls back, update in en keeps de', async () => {
    const created = await shop.admin.post('/admin/collections?locale=de', { title: 'Sommerweine', body_html: '<p>Sonne</p>' }).expect(201);
    expect(created.headers['content-language']).toBe('de');
    const c = created.body.collection;
    expect(c).toMatchObject({ title: 'Sommerweine', body_html: '<p>Sonne</p>', handle: 'sommerweine' });
    const en = await shop.admin.get(`/admin/collections/${c.id}`).expect(200);
    expect(en.headers['content-language']).toBe('en');
    expect(en.body.collection).toMatchObject({ title: 'Sommerweine', body_html: '<p>Sonne</p>' });
    await shop.admin.put(`/admin/collections/${c.id}`, { title: 'Summer wines' }).expect(200);
    expect((await shop.admin.get(`/admin/collections/${c.id}`)).body.collection).toMatchObject({ title: 'Summer wines', body_html: '<p>Sonne</p>' });
    expect((await shop.admin.get(`/admin/collections/${c.id}?locale=de`)).body.collection).toMatchObject({ title: 'Sommerweine', body_html: '<p>Sonne</p>' });
    expect((await shop.admin.get(`/admin/collections/${c.id}`).set('Accept-Language', 'de-CH, en;q=0.5')).body.collection.title).toBe('Sommerweine');
    // a language the shop lacks falls back to the default
    expect((await shop.admin.get(`/admin/collections/${c.id}?locale=fr`)).body.collection.title).toBe('Summer wines');
    // removing the de body leaves the list reading the remaining language
    await shop.admin.put(`/admin/collections/${c.id}?locale=de`, { body_html: null }).expect(200);
    expect((await shop.admin.get(`/admin/collections/${c.id}?locale=de`)).body.collection.body_html).toBeNull();
  });

  it('needs the collections scopes: 401 without a token, 403 without the scope, write does not imply read', async () => {
    await t.client(null).get('/admin/collections').expect(401);
    await t.client(shop.storefront_token).get('/admin/collections').expect(401);
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'scoped', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
    const themes = t.client(await mint(['Shop/themes/read', 'Shop/customers/write']));
    const res = await themes.get('/admin/collections').expect(403);
    expect(res.body).toEqual({ errors: expect.stringContaining('Shop/collections/read') });
    await themes.post('/admin/collections', { title: 'x' }).expect(403);
    const reader = t.client(await mint(['Shop/collections/read']));
    await reader.get('/admin/collections').expect(200);
    await reader.post('/admin/collections', { title: 'x' }).expect(403);
    const writer = t.client(await mint(['Shop/collections/write']));
    const made = (await writer.post('/admin/collections', { title: 'Written' }).expect(201)).body.collection;
    await writer.get(`/admin/collections/${made.id}`).expect(403);
    await writer.put(`/admin/collections/${made.id}`, { title: 'y' }).expect(200);
    await writer.delete(`/admin/collections/${made.id}`).expect(204);
  });

  it('filters the list by published and collection_type', async () => {
    const res = await shop.admin.get('/admin/collections?limit=250&published=false').expect(200);
    expect(res.body.collections.length).toBeGreaterThan(0);
    expect(res.body.collections.every((c: { published: boolean }) => !c.published)).toBe(true);
    const smart = await shop.admin.get('/admin/collections?limit=250&collection_type=smart').expect(200);
    expect(smart.body.collections.length).toBeGreaterThan(0);
    expect(smart.body.collections.every((c: { collection_type: string }) => c.collection_type === 'smart')).toBe(true);
    await shop.admin.get('/admin/collections?published=maybe').expect(422);
  });

  describe('the shared pager', () => {
    let pager: TestShop;
    let ids: string[];

    beforeAll(async () => {
      pager = await t.createShop();
      ids = [];
      for (let i = 0; i < 120; i += 10) {
        const batch = await Promise.all(
          Array.from({ length: 10 }, (_, j) => pager.admin.post('/admin/collections', { title: `Paged ${i + j}`, published: (i + j) % 2 === 0 }).expect(201)),
        );
        ids.push(...batch.map((r) => r.body.collection.id as string));
      }
    });

    it('walks 120 collections with limit=7 following the Link header verbatim, each row exactly once', async () => {
      const seen: string[] = [];
      let path: string | null = '/admin/collections?limit=7';
      let pages = 0;
      while (path) {
        const res = await pager.admin.get(path).expect(200);
        expect(Object.keys(res.body)).toEqual(['collections']);
        const rows = res.body.collections as Array<{ id: string }>;
        pages += 1;
        path = nextPath(res);
        if (path) {
          expect(rows).toHaveLength(7);
          expect(String(res.headers.link)).toMatch(/^<http:\/\/[^>]+\/api\/2026-04-01\/admin\/collections\?limit=7&page_info=[^>]+>; rel="next"$/);
        }
        seen.push(...rows.map((r) => r.id));
      }
      expect(pages).toBe(Math.ceil(120 / 7));
      expect(seen).toHaveLength(120);
      expect(new Set(seen).size).toBe(120);
      expect([...seen].sort()).toEqual([...ids].sort());
    });

    it('keeps filters in the next link and walks a filtered list', async () => {
      const seen: string[] = [];
      let path: string | null = '/admin/collections?published=true&limit=9';
      while (path) {
        const res = await pager.admin.get(path).expect(200);
        seen.push(...res.body.collections.map((c: { id: string; published: boolean }) => (expect(c.published).toBe(true), c.id)));
        path = nextPath(res);
        if (path) expect(path).toContain('published=true');
      }
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
    });

    it('default page size is 50; limit is clamped to 1..250; limit=abc is 422', async () => {
      const def = await pager.admin.get('/admin/collections').expect(200);
      expect(def.body.collections).toHaveLength(50);
      expect(nextPath(def)).toContain('limit=50');
      const zero = await pager.admin.get('/admin/collections?limit=0').expect(200);
      expect(zero.body.collections).toHaveLength(1);
      expect(nextPath(zero)).toContain('limit=1&');
      const neg = await pager.admin.get('/admin/collections?limit=-5').expect(200);
      expect(neg.body.collections).toHaveLength(1);
      // 260 rows so that the clamp to 250 is visible
      await t.db.query(
        `INSERT INTO collections (tenant_id, handle, title) SELECT $1, 'bulk-' || g, jsonb_build_object('en', 'Bulk ' || g) FROM generate_series(1, 140) g`,
        [pager.tenant.id],
      );
      const big = await pager.admin.get('/admin/collections?limit=1000').expect(200);
      expect(big.body.collections).toHaveLength(250);
      expect(nextPath(big)).toContain('limit=250&');
      const bad = await pager.admin.get('/admin/collections?limit=abc').expect(422);
      expect(bad.body).toEqual({ errors: expect.stringContaining('limit') });
      await pager.admin.get('/admin/collections?limit=2.5').expect(422);
    });

    it('a tampered page_info is 422 with the error envelope', async () => {
      const first = await pager.admin.get('/admin/collections?limit=5').expect(200);
      const next = nextPath(first)!;
      const info = new URL(`http://x${next}`).searchParams.get('page_info')!;
      for (const pos of [0, Math.floor(info.length / 2), info.length - 1]) {
        const flipped = info.slice(0, pos) + (info[pos] === 'A' ? 'B' : 'A') + info.slice(pos + 1);
        const res = await pager.admin.get(`/admin/collections?limit=5&page_info=${encodeURIComponent(flipped)}`).expect(422);
        expect(res.body).toEqual({ errors: expect.stringContaining('page_info') });
      }
      await pager.admin.get('/admin/collections?page_info=garbage').expect(422);
      // the untampered cursor works
      await pager.admin.get(next).expect(200);
    });

    it('a page_info from the articles list is foreign on the pages list (and vice versa), and a collections cursor on customers', async () => {
      for (let i = 0; i < 3; i++) {
        await pager.admin.post('/admin/content/articles', { title: `Article ${i}` }).expect(201);
        await pager.admin.post('/admin/content/pages', { handle: `page-${i}` }).expect(201);
      }
      const articles = await pager.admin.get('/admin/content/articles?limit=1').expect(200);
      const articleInfo = pageInfoOf(articles);
      const onPages = await pager.admin.get(`/admin/content/pages?limit=1&page_info=${encodeURIComponent(articleInfo)}`).expect(422);
      expect(onPages.body).toEqual({ errors: expect.stringContaining('page_info') });
      await pager.admin.get(`/admin/content/articles?limit=1&page_info=${encodeURIComponent(articleInfo)}`).expect(200);
      const pages = await pager.admin.get('/admin/content/pages?limit=1').expect(200);
      const pageInfo = pageInfoOf(pages);
      await pager.admin.get(`/admin/content/articles?limit=1&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
      const colls = await pager.admin.get('/admin/collections?limit=1').expect(200);
      const collInfo = pageInfoOf(colls);
      await pager.admin.get(`/admin/customers?page_info=${encodeURIComponent(collInfo)}`).expect(422);
      await pager.admin.get(`/admin/discount_codes?page_info=${encodeURIComponent(collInfo)}`).expect(422);
    });

    it("a page_info reused with a changed filter is stale (422); another shop's cursor is 422 too", async () => {
      const first = await pager.admin.get('/admin/collections?published=true&limit=4').expect(200);
      const info = pageInfoOf(first);
      const enc = encodeURIComponent(info);
      await pager.admin.get(`/admin/collections?published=true&limit=4&page_info=${enc}`).expect(200);
      // only limit may change
      await pager.admin.get(`/admin/collections?published=true&limit=11&page_info=${enc}`).expect(200);
      const stale = await pager.admin.get(`/admin/collections?published=false&limit=4&page_info=${enc}`).expect(422);
      expect(stale.body).toEqual({ errors: expect.stringContaining('page_info') });
      await pager.admin.get(`/admin/collections?limit=4&page_info=${enc}`).expect(422);
      await pager.admin.get(`/admin/collections?published=true&collection_type=manual&limit=4&page_info=${enc}`).expect(422);
      // the cursor cannot leave its shop's list either: same path, other tenant's data is never reachable
      const theirs = await shop.admin.get(`/admin/collections?published=true&limit=4&page_info=${enc}`);
      if (theirs.status === 200) {
        const mine = new Set(ids);
        expect(theirs.body.collections.every((c: { id: string }) => !mine.has(c.id))).toBe(true);
      } else {
        expect(theirs.status).toBe(422);
      }
    });
  });
});

describe('OpenAPI of the admin resources', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents every endpoint of collections, customers, pages, articles and discount codes with their schemas', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const ops: Record<string, string[]> = {
      '/api/2026-04-01/admin/collections': ['get', 'post'],
      '/api/2026-04-01/admin/collections/{id}': ['get', 'put', 'delete'],
      '/api/2026-04-01/admin/customers': ['get', 'post'],
      '/api/2026-04-01/admin/customers/{id}': ['get', 'put', 'delete'],
      '/api/2026-04-01/admin/content/pages': ['get', 'post'],
      '/api/2026-04-01/admin/content/pages/{id}': ['get', 'put', 'delete'],
      '/api/2026-04-01/admin/content/articles': ['get', 'post'],
      '/api/2026-04-01/admin/content/articles/{id}': ['get', 'put', 'delete'],
      '/api/2026-04-01/admin/discount_codes': ['get', 'post'],
      '/api/2026-04-01/admin/discount_codes/{id}': ['get', 'put', 'delete'],
    };
    for (const [path, methods] of Object.entries(ops)) {
      expect(doc.paths[path]).toBeDefined();
      for (const m of methods) expect(doc.paths[path][m]).toBeDefined();
    }
    for (const schema of [
      'CreateCollectionDto',
      'UpdateCollectionDto',
      'CollectionDto',
      'ImageDto',
      'CreateCustomerDto',
      'UpdateCustomerDto',
      'CustomerDto',
      'AdminDefaultAddressDto',
      'CreatePageDto',
      'UpdatePageDto',
      'PageDto',
      'CreateArticleDto',
      'UpdateArticleDto',
      'ArticleDto',
      'CreateDiscountCodeDto',
      'UpdateDiscountCodeDto',
      'DiscountCodeDto',
    ]) {
      expect(doc.components.schemas[schema]).toBeDefined();
    }
    expect(doc.components.schemas.CreateCollectionDto.required).toEqual(['title']);
    expect(doc.components.schemas.CreateCustomerDto.required).toEqual(['email']);
    expect(doc.components.schemas.CreatePageDto.required).toEqual(['handle']);
    expect(doc.components.schemas.CreateDiscountCodeDto.required).toEqual(expect.arrayContaining(['code', 'value']));
    expect(doc.components.schemas.CollectionDto.properties.products_count).toBeDefined();
    const envelope = (path: string, method: string, status: string) =>
      doc.paths[`${API}${path}`][method].responses[status].content['application/json'].schema.properties;
    expect(envelope('/admin/collections', 'get', '200').collections.items.$ref).toBe('#/components/schemas/CollectionDto');
    expect(envelope('/admin/collections', 'post', '201').collection.$ref).toBe('#/components/schemas/CollectionDto');
    expect(envelope('/admin/customers/{id}', 'put', '200').customer.$ref).toBe('#/components/schemas/CustomerDto');
    expect(envelope('/admin/content/pages', 'get', '200').pages.items.$ref).toBe('#/components/schemas/PageDto');
    expect(envelope('/admin/content/articles/{id}', 'get', '200').article.$ref).toBe('#/components/schemas/ArticleDto');
    expect(envelope('/admin/discount_codes', 'get', '200').discount_codes.items.$ref).toBe('#/components/schemas/DiscountCodeDto');
    expect(doc.paths[`${API}/admin/collections`].get.security).toEqual(expect.arrayContaining([{ admin: [] }]));
  });
});
