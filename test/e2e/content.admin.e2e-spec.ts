import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TenancyService } from '../../src/tenancy/tenancy.service.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { pageInfoOf, walkIds } from '../helpers/paging.js';

const PAGE_KEYS = [
  'id',
  'handle',
  'title',
  'body_html',
  'published',
  'template',
  'type',
  'show_in_header',
  'show_in_footer',
  'sort_order',
  'meta_description',
  'meta_keywords',
  'menu_title',
  'created_at',
  'updated_at',
].sort();
const ARTICLE_KEYS = ['id', 'title', 'summary_html', 'body_html', 'published', 'image', 'created_at', 'updated_at'].sort();
/** SPEC Image: id is a uuid (the owner's id, as the image lives in its row) even while there is no image. */
const EMPTY_IMAGE = { id: expect.stringMatching(/^[0-9a-f-]{36}$/), src: null, preview_src: null, alt: null, position: 0, width: 0, height: 0 };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin content pages and articles', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    await t.get(TenancyService).updateSettings(t.db.manager, shop.tenant.id, { default_language: 'en', languages: ['en', 'de', 'fr'] });
  });
  afterAll(() => t.close());

  describe('pages', () => {
    it('creates with only a handle: defaults and updated_at null', async () => {
      const res = await shop.admin.post('/admin/content/pages', { handle: 'about' }).expect(201);
      expect(Object.keys(res.body)).toEqual(['page']);
      const p = res.body.page;
      expect(Object.keys(p).sort()).toEqual(PAGE_KEYS);
      expect(p).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        handle: 'about',
        title: null,
        body_html: null,
        published: true,
        template: null,
        type: 'common',
        show_in_header: false,
        show_in_footer: false,
        sort_order: 0,
        meta_description: null,
        meta_keywords: null,
        menu_title: null,
        created_at: expect.stringMatching(ISO),
        updated_at: null,
      });
      expect((await shop.admin.get(`/admin/content/pages/${p.id}`).expect(200)).body).toEqual({ page: p });
    });

    it('creates with every member', async () => {
      const body = {
        handle: 'terms',
        title: 'Terms',
        body_html: '<h1>Terms</h1>',
        published: false,
        template: 'page.legal',
        type: 'liquid',
        show_in_header: true,
        show_in_footer: true,
        sort_order: -3,
        meta_description: 'Our terms',
        meta_keywords: 'terms, legal',
        menu_title: 'T&C',
      };
      const res = await shop.admin.post('/admin/content/pages', body).expect(201);
      expect(res.body.page).toMatchObject({ ...body, updated_at: null });
      expect((await shop.admin.get(`/admin/content/pages/${res.body.page.id}`)).body.page).toEqual(res.body.page);
    });

    it.each([
      ['missing body', undefined],
      ['missing handle', { title: 'No handle' }],
      ['null handle', { handle: null }],
      ['handle with a space', { handle: 'a b' }],
      ['handle too long', { handle: 'h'.repeat(256) }],
      ['unknown type', { handle: 'x1', type: 'markdown' }],
      ['published not a boolean', { handle: 'x2', published: 'true' }],
      ['show_in_header not a boolean', { handle: 'x3', show_in_header: 0 }],
      ['sort_order not an integer', { handle: 'x4', sort_order: 1.5 }],
      ['sort_order as a string', { handle: 'x5', sort_order: '3' }],
      ['sort_order beyond int32', { handle: 'x6', sort_order: 2 ** 31 }],
      ['title too long', { handle: 'x7', title: 't'.repeat(256) }],
      ['title of wrong type', { handle: 'x8', title: ['a'] }],
      ['menu_title too long', { handle: 'x9', menu_title: 'm'.repeat(256) }],
    ])('create rejects %s with 422 and the error envelope', async (_name, body) => {
      const res = await shop.admin.post('/admin/content/pages', body).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });

    it('rejects a duplicate handle (any case) with 422; other shops may use it', async () => {
      await shop.admin.post('/admin/content/pages', { handle: 'shipping' }).expect(201);
      const res = await shop.admin.post('/admin/content/pages', { handle: 'Shipping' }).expect(422);
      expect(res.body.errors).toContain('handle');
      await other.admin.post('/admin/content/pages', { handle: 'shipping' }).expect(201);
    });

    it('two concurrent creates with the same handle: one 201, one 422', async () => {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all([0, 1].map((i) => shop.admin.post('/admin/content/pages', { handle: `race-${round}`, title: `Race ${i}` })));
        expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      }
    });

    it('update applies only the supplied members and sets updated_at', async () => {
      const p = (
        await shop.admin
          .post('/admin/content/pages', { handle: 'upd-page', title: 'Old', body_html: '<p>old</p>', sort_order: 4, show_in_footer: true, template: 'tpl' })
          .expect(201)
      ).body.page;
      const res = await shop.admin.put(`/admin/content/pages/${p.id}`, { title: 'New', type: 'liquid', show_in_header: true }).expect(200);
      expect(res.body.page).toMatchObject({
        id: p.id,
        handle: 'upd-page',
        title: 'New',
        body_html: '<p>old</p>',
        type: 'liquid',
        show_in_header: true,
        show_in_footer: true,
        sort_order: 4,
        template: 'tpl',
        created_at: p.created_at,
      });
      expect(res.body.page.updated_at).toEqual(expect.stringMatching(ISO));
      // nullable booleans/integers: null is no change; null texts clear
      const res2 = await shop.admin
        .put(`/admin/content/pages/${p.id}`, {
          sort_order: null,
          show_in_footer: null,
          published: null,
          type: null,
          template: null,
          body_html: null,
          handle: 'upd-page-2',
        })
        .expect(200);
      expect(res2.body.page).toMatchObject({
        sort_order: 4,
        show_in_footer: true,
        published: true,
        type: 'liquid',
        template: null,
        body_html: null,
        handle: 'upd-page-2',
      });
      expect((await shop.admin.get(`/admin/content/pages/${p.id}`)).body.page).toEqual(res2.body.page);
    });

    it.each([
      ['missing body', undefined],
      ['a taken handle', { handle: 'about' }],
      ['a null handle', { handle: null }],
      ['an unknown type', { type: 'html' }],
      ['sort_order not an integer', { sort_order: 'first' }],
    ])('update rejects %s with 422 and changes nothing', async (_name, body) => {
      const p = (await shop.admin.post('/admin/content/pages', { handle: `p422-${Math.random().toString(36).slice(2)}` }).expect(201)).body.page;
      await shop.admin.put(`/admin/content/pages/${p.id}`, body).expect(422);
      expect((await shop.admin.get(`/admin/content/pages/${p.id}`)).body.page).toEqual(p);
    });

    it('create and update act on the active language; reads fall back to the default; delete removes every language', async () => {
      const de = await shop.admin
        .post('/admin/content/pages?locale=de', {
          handle: 'impressum',
          title: 'Impressum',
          body_html: '<p>Angaben</p>',
          meta_description: 'Beschreibung',
          meta_keywords: 'recht',
          menu_title: 'Impressum',
        })
        .expect(201);
      const id = de.body.page.id;
      const en = (await shop.admin.get(`/admin/content/pages/${id}`).expect(200)).body.page;
      expect(en).toMatchObject({
        title: 'Impressum',
        body_html: '<p>Angaben</p>',
        meta_description: 'Beschreibung',
        meta_keywords: 'recht',
        menu_title: 'Impressum',
      });
      await shop.admin.put(`/admin/content/pages/${id}`, { title: 'Imprint', menu_title: 'Imprint', meta_description: 'Description' }).expect(200);
      expect((await shop.admin.get(`/admin/content/pages/${id}`)).body.page).toMatchObject({
        title: 'Imprint',
        menu_title: 'Imprint',
        meta_description: 'Description',
        body_html: '<p>Angaben</p>',
      });
      expect((await shop.admin.get(`/admin/content/pages/${id}?locale=de`)).body.page).toMatchObject({
        title: 'Impressum',
        menu_title: 'Impressum',
        meta_description: 'Beschreibung',
      });
      // fr has nothing of its own: the default language (en) wins over de
      expect((await shop.admin.get(`/admin/content/pages/${id}?locale=fr`)).body.page).toMatchObject({ title: 'Imprint', body_html: '<p>Angaben</p>' });
      const list = await shop.admin.get('/admin/content/pages?locale=de&limit=250').expect(200);
      expect(list.headers['content-language']).toBe('de');
      expect(list.body.pages.find((p: { id: string }) => p.id === id).title).toBe('Impressum');
      await shop.admin.delete(`/admin/content/pages/${id}?locale=de`).expect(204);
      await shop.admin.get(`/admin/content/pages/${id}`).expect(404);
      await shop.admin.get(`/admin/content/pages/${id}?locale=de`).expect(404);
      expect(await t.db.query(`SELECT 1 FROM content_pages WHERE id = $1`, [id])).toHaveLength(0);
      // the handle is free again
      await shop.admin.post('/admin/content/pages', { handle: 'impressum' }).expect(201);
    });

    it('delete is 204 without body, then 404; unknown 404; malformed 422', async () => {
      const p = (await shop.admin.post('/admin/content/pages', { handle: 'doomed' }).expect(201)).body.page;
      expect((await shop.admin.delete(`/admin/content/pages/${p.id}`).expect(204)).text).toBe('');
      await shop.admin.delete(`/admin/content/pages/${p.id}`).expect(404);
      await shop.admin.put(`/admin/content/pages/${p.id}`, { title: 'x' }).expect(404);
      await shop.admin.get('/admin/content/pages/00000000-0000-4000-8000-000000000000').expect(404);
      await shop.admin.get('/admin/content/pages/nope').expect(422);
    });

    it("another shop's page is 404 and absent from the list", async () => {
      const theirs = (await other.admin.post('/admin/content/pages', { handle: 'theirs', title: 'Theirs' }).expect(201)).body.page;
      await shop.admin.get(`/admin/content/pages/${theirs.id}`).expect(404);
      await shop.admin.put(`/admin/content/pages/${theirs.id}`, { title: 'Mine' }).expect(404);
      await shop.admin.delete(`/admin/content/pages/${theirs.id}`).expect(404);
      expect((await shop.admin.get('/admin/content/pages?limit=250')).body.pages.map((p: { id: string }) => p.id)).not.toContain(theirs.id);
      expect((await other.admin.get(`/admin/content/pages/${theirs.id}`).expect(200)).body.page.title).toBe('Theirs');
    });
  });

  describe('articles', () => {
    it('creates with only a title: defaults, empty image, updated_at null', async () => {
      const res = await shop.admin.post('/admin/content/articles', { title: 'Harvest 2025' }).expect(201);
      expect(Object.keys(res.body)).toEqual(['article']);
      const a = res.body.article;
      expect(Object.keys(a).sort()).toEqual(ARTICLE_KEYS);
      expect(a).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Harvest 2025',
        summary_html: null,
        body_html: null,
        published: true,
        image: EMPTY_IMAGE,
        created_at: expect.stringMatching(ISO),
        updated_at: null,
      });
      expect((await shop.admin.get(`/admin/content/articles/${a.id}`).expect(200)).body).toEqual({ article: a });
    });

    it('creates with every member', async () => {
      const body = { title: 'Tasting', summary_html: '<p>Short</p>', body_html: '<p>Long</p>', published: false };
      const res = await shop.admin.post('/admin/content/articles', body).expect(201);
      expect(res.body.article).toMatchObject(body);
    });

    it.each([
      ['missing body', undefined],
      ['missing title', { body_html: '<p>x</p>' }],
      ['null title', { title: null }],
      ['blank title', { title: '  ' }],
      ['title too long', { title: 't'.repeat(256) }],
      ['published not a boolean', { title: 'x', published: 'false' }],
      ['summary_html of wrong type', { title: 'x', summary_html: {} }],
    ])('create rejects %s with 422 and the error envelope', async (_name, body) => {
      const res = await shop.admin.post('/admin/content/articles', body).expect(422);
      expect(res.body).toEqual({ errors: expect.any(String) });
    });

    it('update applies only the supplied members and sets updated_at', async () => {
      const a = (await shop.admin.post('/admin/content/articles', { title: 'Old', summary_html: '<p>s</p>', body_html: '<p>b</p>' }).expect(201)).body.article;
      const res = await shop.admin.put(`/admin/content/articles/${a.id}`, { body_html: '<p>new</p>', published: false }).expect(200);
      expect(res.body.article).toMatchObject({ title: 'Old', summary_html: '<p>s</p>', body_html: '<p>new</p>', published: false, created_at: a.created_at });
      expect(res.body.article.updated_at).toEqual(expect.stringMatching(ISO));
      const res2 = await shop.admin.put(`/admin/content/articles/${a.id}`, { published: null, summary_html: null }).expect(200);
      expect(res2.body.article).toMatchObject({ published: false, summary_html: null });
      await shop.admin.put(`/admin/content/articles/${a.id}`, { title: null }).expect(422);
      await shop.admin.put(`/admin/content/articles/${a.id}`, { title: '' }).expect(422);
      await shop.admin.put(`/admin/content/articles/${a.id}`, { published: 'yes' }).expect(422);
      await shop.admin.put(`/admin/content/articles/${a.id}`).expect(422);
      expect((await shop.admin.get(`/admin/content/articles/${a.id}`)).body.article).toEqual(res2.body.article);
    });

    it('create in de, read in en falls back; update in en keeps de; delete removes every language', async () => {
      const a = (
        await shop.admin.post('/admin/content/articles?locale=de', { title: 'Weinlese', summary_html: '<p>Kurz</p>', body_html: '<p>Lang</p>' }).expect(201)
      ).body.article;
      expect((await shop.admin.get(`/admin/content/articles/${a.id}`)).body.article).toMatchObject({
        title: 'Weinlese',
        summary_html: '<p>Kurz</p>',
        body_html: '<p>Lang</p>',
      });
      await shop.admin.put(`/admin/content/articles/${a.id}?locale=en`, { title: 'Harvest', summary_html: '<p>Short</p>' }).expect(200);
      expect((await shop.admin.get(`/admin/content/articles/${a.id}`)).body.article).toMatchObject({
        title: 'Harvest',
        summary_html: '<p>Short</p>',
        body_html: '<p>Lang</p>',
      });
      expect((await shop.admin.get(`/admin/content/articles/${a.id}?locale=de`)).body.article).toMatchObject({
        title: 'Weinlese',
        summary_html: '<p>Kurz</p>',
      });
      expect((await shop.admin.get(`/admin/content/articles/${a.id}?locale=fr`)).body.article.title).toBe('Harvest');
      await shop.admin.delete(`/admin/content/articles/${a.id}`).expect(204);
      await shop.admin.get(`/admin/content/articles/${a.id}?locale=de`).expect(404);
      await shop.admin.delete(`/admin/content/articles/${a.id}`).expect(404);
    });

    it('unknown and foreign ids are 404; malformed ids 422', async () => {
      const theirs = (await other.admin.post('/admin/content/articles', { title: 'Theirs' }).expect(201)).body.article;
      await shop.admin.get(`/admin/content/articles/${theirs.id}`).expect(404);
      await shop.admin.put(`/admin/content/articles/${theirs.id}`, { title: 'Mine' }).expect(404);
      await shop.admin.delete(`/admin/content/articles/${theirs.id}`).expect(404);
      expect((await shop.admin.get('/admin/content/articles?limit=250')).body.articles.map((a: { id: string }) => a.id)).not.toContain(theirs.id);
      await shop.admin.get('/admin/content/articles/00000000-0000-4000-8000-000000000000').expect(404);
      await shop.admin.delete('/admin/content/articles/xyz').expect(422);
    });
  });

  describe('lists', () => {
    let fresh: TestShop;
    let pageIds: string[];
    let articleIds: string[];

    beforeAll(async () => {
      fresh = await t.createShop();
      pageIds = [];
      articleIds = [];
      for (let i = 0; i < 12; i++) {
        pageIds.push((await fresh.admin.post('/admin/content/pages', { handle: `list-${i}`, published: i % 2 === 0 }).expect(201)).body.page.id);
        articleIds.push((await fresh.admin.post('/admin/content/articles', { title: `List ${i}`, published: i % 2 === 1 }).expect(201)).body.article.id);
      }
    });

    it('pages and articles page through more than one page, published or not, oldest first', async () => {
      expect(await walkIds(fresh.admin, '/admin/content/pages?limit=5', 'pages')).toEqual(pageIds);
      expect(await walkIds(fresh.admin, '/admin/content/articles?limit=5', 'articles')).toEqual(articleIds);
      expect((await fresh.admin.get('/admin/content/pages').expect(200)).body.pages).toHaveLength(12);
    });

    it('page and article cursors are not interchangeable', async () => {
      const pageInfo = pageInfoOf(await fresh.admin.get('/admin/content/pages?limit=5').expect(200));
      const articleInfo = pageInfoOf(await fresh.admin.get('/admin/content/articles?limit=5').expect(200));
      const a = await fresh.admin.get(`/admin/content/articles?limit=5&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
      expect(a.body).toEqual({ errors: expect.stringContaining('page_info') });
      await fresh.admin.get(`/admin/content/pages?limit=5&page_info=${encodeURIComponent(articleInfo)}`).expect(422);
      await fresh.admin.get(`/admin/content/pages?limit=5&page_info=${encodeURIComponent(pageInfo)}`).expect(200);
      // a changed query is stale
      await fresh.admin.get(`/admin/content/pages?limit=5&locale=de&page_info=${encodeURIComponent(pageInfo)}`).expect(422);
      await fresh.admin.get('/admin/content/pages?limit=abc').expect(422);
      await fresh.admin.get('/admin/content/articles?limit=abc').expect(422);
    });
  });

  it('needs the content scopes', async () => {
    await t.client(null).get('/admin/content/pages').expect(401);
    const mint = async (scopes: string[]) =>
      (await shop.admin.post('/admin/access_tokens', { label: 'scoped', tier: 'admin', scopes }).expect(201)).body.access_token.token as string;
    const none = t.client(await mint(['Shop/collections/read', 'Shop/customers/read']));
    await none.get('/admin/content/pages').expect(403);
    await none.get('/admin/content/articles').expect(403);
    await none.post('/admin/content/pages', { handle: 'no-scope' }).expect(403);
    await none.post('/admin/content/articles', { title: 'no scope' }).expect(403);
    const reader = t.client(await mint(['Shop/content/read']));
    await reader.get('/admin/content/pages').expect(200);
    await reader.get('/admin/content/articles').expect(200);
    await reader.post('/admin/content/articles', { title: 'nope' }).expect(403);
    const writer = t.client(await mint(['Shop/content/write']));
    const a = (await writer.post('/admin/content/articles', { title: 'written' }).expect(201)).body.article;
    await writer.get(`/admin/content/articles/${a.id}`).expect(403);
    await writer.delete(`/admin/content/articles/${a.id}`).expect(204);
  });
});
