import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createShopApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/app-config.js';
import { SearchSynonyms1795709000000 } from '../../src/database/migrations/1795709000000-search-synonyms.js';
import { WINE_SYNONYMS } from '../../src/search-synonyms/data/wine-synonyms.js';
import { checkedRule } from '../../src/search-synonyms/synonym-rules.js';
import { SearchSynonymsService } from '../../src/search-synonyms/index.js';
import { nextPath } from '../helpers/paging.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { until } from '../helpers/wait.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f-]{36}$/;
type Rule = { id: string; key: string | null; kind: string; terms: string[]; synonyms: string[]; created_at: string; updated_at: string | null };

/** Issue 35: per-shop search synonyms (README "Search synonyms"). */
describe('admin search synonyms', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let b: NestExpressApplication | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
  });
  afterAll(async () => {
    await b?.close();
    await t.close();
  });

  const patch = (s: TestShop, path: string, body: object) =>
    request(t.server)
      .patch(API + path)
      .set('Authorization', `Bearer ${s.admin.token}`)
      .send(body);
  const topics = async (id: string): Promise<Array<{ topic: string; payload: Record<string, unknown> }>> =>
    t.db.query(`SELECT topic, payload FROM outbox_events WHERE tenant_id = $1 AND payload->'search_synonym'->>'id' = $2 ORDER BY occurred_at, id`, [
      shop.tenant.id,
      id,
    ]);
  const all = async (s: TestShop): Promise<Rule[]> => {
    const out: Rule[] = [];
    let path: string | null = '/admin/search/synonyms?limit=250';
    while (path) {
      const res = await s.admin.get(path).expect(200);
      out.push(...(res.body.search_synonyms as Rule[]));
      path = nextPath(res);
    }
    return out;
  };

  it('a new shop has the shipped wine defaults, in the file order, normalised', async () => {
    const rules = await all(shop);
    expect(rules.map((r) => r.key)).toEqual(WINE_SYNONYMS.map((r) => r.key));
    const pinot = rules.find((r) => r.key === 'default-pinot-noir')!;
    expect(pinot).toEqual({
      id: expect.stringMatching(UUID),
      key: 'default-pinot-noir',
      kind: 'two_way',
      terms: ['pinot noir', 'spatburgunder', 'pinot nero', 'blauburgunder'],
      synonyms: [],
      created_at: expect.stringMatching(ISO),
      updated_at: null,
    });
    expect(rules.find((r) => r.key === 'default-bubbly')).toMatchObject({ kind: 'one_way', terms: ['bubbly', 'bubbles', 'fizz'] });
    expect(rules.find((r) => r.key === 'default-bubbly')!.synonyms).toEqual(expect.arrayContaining(['sparkling', 'champagne', 'cremant', 'spumante', 'sekt']));
    // the engine's reader serves the same rules
    const reader = t.get(SearchSynonymsService);
    expect((await reader.rulesFor(shop.tenant.id)).map((r) => r.id)).toEqual(rules.map((r) => r.id));
  });

  it('the migration gives every shop that exists the same defaults as a new shop gets (its frozen copy matches the data file)', async () => {
    const qr = t.db.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    try {
      await qr.query(`DROP TABLE search_synonyms`);
      await new SearchSynonyms1795709000000().up(qr);
      const rows: Array<{ tenant_id: string; key: string; kind: string; terms: string[]; synonyms: string[] }> = await qr.query(
        `SELECT tenant_id, key, kind, terms, synonyms FROM search_synonyms WHERE tenant_id = ANY($1::uuid[]) ORDER BY created_at, id`,
        [[shop.tenant.id, other.tenant.id]],
      );
      const expected = WINE_SYNONYMS.map((r) => ({ key: r.key, ...checkedRule(r) }));
      for (const tenant of [shop.tenant.id, other.tenant.id])
        expect(rows.filter((r) => r.tenant_id === tenant).map(({ tenant_id: _t, ...r }) => r)).toEqual(expected);
    } finally {
      await qr.rollbackTransaction();
      await qr.release();
    }
  });

  it('creates, reads, updates and deletes a rule, each with its event; normalises and merges duplicates', async () => {
    const created = (
      await shop.admin
        .post('/admin/search/synonyms')
        .set('Idempotency-Key', 'syn-create-1')
        .send({ kind: 'two_way', terms: ['  Côtes-du-Rhône ', 'cotes du rhone', 'CDR', 'Rhône  Valley'] })
        .expect(201)
    ).body.search_synonym as Rule;
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      key: null,
      kind: 'two_way',
      terms: ['cotes du rhone', 'cdr', 'rhone valley'],
      synonyms: [],
      created_at: expect.stringMatching(ISO),
      updated_at: null,
    });
    // a retry with the same Idempotency-Key answers the first answer, creating nothing
    const again = await shop.admin
      .post('/admin/search/synonyms')
      .set('Idempotency-Key', 'syn-create-1')
      .send({ kind: 'two_way', terms: ['  Côtes-du-Rhône ', 'cotes du rhone', 'CDR', 'Rhône  Valley'] })
      .expect(201);
    expect(again.body.search_synonym.id).toBe(created.id);
    expect((await shop.admin.get(`/admin/search/synonyms/${created.id}`).expect(200)).body).toEqual({ search_synonym: created });

    const updated = (await patch(shop, `/admin/search/synonyms/${created.id}`, { kind: 'one_way', synonyms: ['Syrah', 'Grenache'] }).expect(200)).body
      .search_synonym as Rule;
    expect(updated).toEqual({ ...created, kind: 'one_way', synonyms: ['syrah', 'grenache'], updated_at: expect.stringMatching(ISO) });
    const put = (await shop.admin.put(`/admin/search/synonyms/${created.id}`, { key: 'rhone' }).expect(200)).body.search_synonym as Rule;
    expect(put).toMatchObject({ key: 'rhone', kind: 'one_way', terms: updated.terms, synonyms: updated.synonyms });
    // switching back to two_way drops the synonyms
    expect((await patch(shop, `/admin/search/synonyms/${created.id}`, { kind: 'two_way' }).expect(200)).body.search_synonym.synonyms).toEqual([]);

    await shop.admin.delete(`/admin/search/synonyms/${created.id}`).expect(204);
    await shop.admin.delete(`/admin/search/synonyms/${created.id}`).expect(404);
    await shop.admin.get(`/admin/search/synonyms/${created.id}`).expect(404);
    const events = await topics(created.id);
    expect(events.map((e) => e.topic)).toEqual([
      'search_synonym.created',
      'search_synonym.updated',
      'search_synonym.updated',
      'search_synonym.updated',
      'search_synonym.deleted',
    ]);
    expect(events[0].payload).toEqual({ search_synonym: created });
    expect(events[4].payload).toEqual({ search_synonym: { id: created.id } });
    // webhooks subscribe to the topics like any other
    for (const topic of ['search_synonym.created', 'search_synonym.updated', 'search_synonym.deleted'])
      await shop.admin.post('/admin/webhooks', { topic, address: 'https://hooks.example.test/synonyms' }).expect(201);
  });

  it('422 naming the member for a bad rule; nothing stored', async () => {
    const refuse = async (body: object, message: RegExp) => {
      const res = await shop.admin.post('/admin/search/synonyms', body).expect(422);
      expect(res.body.errors).toMatch(message);
    };
    const before = (await all(shop)).length;
    await refuse({ terms: ['a', 'b'] }, /kind must be two_way or one_way/);
    await refuse({ kind: 'three_way', terms: ['a', 'b'] }, /kind must be two_way or one_way/);
    await refuse({ kind: 'two_way' }, /terms must be a list/);
    await refuse({ kind: 'two_way', terms: 'syrah, shiraz' }, /terms must be a list/);
    await refuse({ kind: 'two_way', terms: ['syrah'] }, /terms must hold at least 2 different phrases/);
    await refuse({ kind: 'two_way', terms: ['Syrah', 'SYRAH '] }, /terms must hold at least 2 different phrases/);
    await refuse({ kind: 'two_way', terms: ['syrah', 'shiraz'], synonyms: ['x'] }, /synonyms must be empty for a two_way rule/);
    await refuse({ kind: 'one_way', terms: ['bubbly'] }, /synonyms must hold at least 1 phrase/);
    await refuse({ kind: 'one_way', terms: [], synonyms: ['x'] }, /terms must hold at least 1 phrase/);
    await refuse({ kind: 'one_way', terms: ['bubbly'], synonyms: ['sekt', 'Bubbly'] }, /synonyms\[1\] "bubbly" is already one of terms/);
    await refuse({ kind: 'two_way', terms: ['syrah', '  '] }, /terms\[1\] must not be blank/);
    await refuse({ kind: 'two_way', terms: ['syrah', 7] }, /terms\[1\] must be a string/);
    await refuse({ kind: 'two_way', terms: ['syrah', 'x'.repeat(101)] }, /terms\[1\] must be at most 100 characters/);
    await refuse({ kind: 'two_way', terms: ['syrah', 'shiraz'], key: 'default-syrah' }, /key is already the key of another search synonym rule/);
    const rule = (await shop.admin.post('/admin/search/synonyms', { kind: 'two_way', terms: ['a', 'b'] }).expect(201)).body.search_synonym as Rule;
    expect((await patch(shop, `/admin/search/synonyms/${rule.id}`, { terms: ['a'] }).expect(422)).body.errors).toMatch(/terms must hold at least 2/);
    expect((await patch(shop, `/admin/search/synonyms/${rule.id}`, { kind: 'one_way' }).expect(422)).body.errors).toMatch(/synonyms must hold at least 1/);
    await patch(shop, '/admin/search/synonyms/nope', { terms: ['a', 'b'] }).expect(422);
    await shop.admin.delete(`/admin/search/synonyms/${rule.id}`).expect(204);
    expect((await all(shop)).length).toBe(before);
  });

  it('scopes and shops: another shop cannot see a rule; a token without the search scopes is 403', async () => {
    const rule = (await shop.admin.post('/admin/search/synonyms', { kind: 'two_way', terms: ['gamay', 'gamay noir'] }).expect(201)).body.search_synonym as Rule;
    await other.admin.get(`/admin/search/synonyms/${rule.id}`).expect(404);
    await other.admin.delete(`/admin/search/synonyms/${rule.id}`).expect(404);
    await patch(other, `/admin/search/synonyms/${rule.id}`, { terms: ['x', 'y'] }).expect(404);
    expect((await all(other)).some((r) => r.id === rule.id)).toBe(false);
    const minted = await shop.admin.post('/admin/access_tokens', { tier: 'admin', label: 'reader', scopes: ['Shop/search/read'] }).expect(201);
    const reader = t.client(minted.body.access_token.token as string);
    await reader.get(`/admin/search/synonyms/${rule.id}`).expect(200);
    await reader.post('/admin/search/synonyms', { kind: 'two_way', terms: ['a', 'b'] }).expect(403);
    await reader.delete(`/admin/search/synonyms/${rule.id}`).expect(403);
    await t.client(null).get('/admin/search/synonyms').expect(401);
  });

  it('export and import round trip: upsert by key, an identical import changes nothing, 422 naming the member', async () => {
    const mine = (await shop.admin.post('/admin/search/synonyms', { kind: 'one_way', terms: ['fizz wine'], synonyms: ['prosecco'] }).expect(201)).body
      .search_synonym as Rule;
    const doc = (await shop.admin.get('/admin/search/synonyms/export').expect(200)).body.document;
    const keys = doc.search_synonyms.map((r: { key: string }) => r.key);
    const keyless = (await all(shop)).filter((r) => r.key === null).length; // this rule and the earlier tests'
    expect(keys).toEqual([...keys].sort());
    expect(doc.search_synonyms).toContainEqual({ key: mine.id, kind: 'one_way', terms: ['fizz wine'], synonyms: ['prosecco'] });
    expect(doc.search_synonyms).toContainEqual({ key: 'default-syrah', kind: 'two_way', terms: ['syrah', 'shiraz'], synonyms: [] });

    // into a fresh shop whose defaults were edited and partly deleted: the document restores them
    const target = await t.createShop();
    const targetRules = await all(target);
    const syrah = targetRules.find((r) => r.key === 'default-syrah')!;
    await patch(target, `/admin/search/synonyms/${syrah.id}`, { terms: ['syrah', 'shiraz', 'sirah'] }).expect(200);
    await target.admin.delete(`/admin/search/synonyms/${targetRules.find((r) => r.key === 'default-riesling')!.id}`).expect(204);
    const first = (await target.admin.post('/admin/search/synonyms/import', doc).expect(200)).body.import;
    expect(first.created).toEqual({ search_synonyms: 1 + keyless }); // riesling again, and each keyless rule under its id as key
    expect(first.updated).toEqual({ search_synonyms: 1 }); // syrah back to the document's terms
    expect(Object.keys(first.ids.search_synonyms).sort()).toEqual(keys);
    const exported = (await target.admin.get('/admin/search/synonyms/export').expect(200)).body.document;
    expect(exported).toEqual(doc);
    const second = (await target.admin.post('/admin/search/synonyms/import', doc).expect(200)).body.import;
    expect(second.created).toEqual({ search_synonyms: 0 });
    expect(second.updated).toEqual({ search_synonyms: 0 });
    expect(second.ids).toEqual(first.ids);

    // the exporting shop re-imports its own document: its keyless rule keeps its id and takes the key
    const own = (await shop.admin.post('/admin/search/synonyms/import', doc).expect(200)).body.import;
    expect(own).toMatchObject({ created: { search_synonyms: 0 }, updated: { search_synonyms: keyless } });
    expect(own.ids.search_synonyms[mine.id]).toBe(mine.id);
    expect((await shop.admin.get(`/admin/search/synonyms/${mine.id}`).expect(200)).body.search_synonym.key).toBe(mine.id);

    // all or nothing, 422 naming the member
    const bad = async (body: object, message: RegExp) =>
      expect((await target.admin.post('/admin/search/synonyms/import', body).expect(422)).body.errors).toMatch(message);
    await bad(
      {
        search_synonyms: [
          { key: 'new-one', kind: 'two_way', terms: ['a', 'b'] },
          { key: 'x', kind: 'two_way', terms: ['a'] },
        ],
      },
      /search_synonyms\[1\]\.terms must hold at least 2/,
    );
    await bad({ search_synonyms: [{ kind: 'two_way', terms: ['a', 'b'] }] }, /search_synonyms\[0\]\.key is required/);
    await bad({ search_synonyms: [{ key: 'k', kind: 'odd', terms: ['a', 'b'] }] }, /search_synonyms\[0\]\.kind must be two_way or one_way/);
    await bad(
      {
        search_synonyms: [
          { key: 'k', kind: 'two_way', terms: ['a', 'b'] },
          { key: 'k', kind: 'two_way', terms: ['c', 'd'] },
        ],
      },
      /search_synonyms\[1\]\.key "k" appears twice/,
    );
    await bad({ search_synonyms: [7] }, /search_synonyms\[0\] must be an object/);
    await bad({ search_synonyms: 'all' }, /search_synonyms must be a list/);
    expect((await all(target)).some((r) => r.key === 'new-one')).toBe(false);
  });

  it('the catalogue document carries them: the export lists search_synonyms, the import upserts them by key (all or nothing)', async () => {
    const source = await t.createShop();
    await source.admin
      .post('/admin/search/synonyms/import', { search_synonyms: [{ key: 'zzfizz-rule', kind: 'one_way', terms: ['zzfizz'], synonyms: ['sparkling'] }] })
      .expect(200);
    const own = (await source.admin.get('/admin/search/synonyms/export').expect(200)).body.document.search_synonyms;
    const doc = (await source.admin.get('/admin/catalogue/export').expect(200)).body;
    expect(doc.search_synonyms).toEqual(own);
    expect(doc.search_synonyms).toContainEqual({ key: 'zzfizz-rule', kind: 'one_way', terms: ['zzfizz'], synonyms: ['sparkling'] });

    // into a shop whose default riesling rule was deleted: the rule and the default come back through the catalogue import
    const target = await t.createShop();
    await target.admin.delete(`/admin/search/synonyms/${(await all(target)).find((r) => r.key === 'default-riesling')!.id}`).expect(204);
    const first = (await target.admin.post('/admin/catalogue/import', doc).expect(200)).body.import;
    expect(first.created.search_synonyms).toBe(2);
    expect(first.updated.search_synonyms).toBe(0);
    expect(Object.keys(first.ids.search_synonyms).sort()).toEqual(own.map((r: { key: string }) => r.key).sort());
    expect((await target.admin.get('/admin/search/synonyms/export').expect(200)).body.document.search_synonyms).toEqual(own);
    const second = (await target.admin.post('/admin/catalogue/import', doc).expect(200)).body.import;
    expect(second.created.search_synonyms).toBe(0);
    expect(second.updated.search_synonyms).toBe(0);
    // the engine's reader has the imported rule at once
    expect((await t.get(SearchSynonymsService).rulesFor(target.tenant.id)).some((r) => r.terms.includes('zzfizz'))).toBe(true);

    // a bad rule refuses the whole import, naming the member; nothing is written
    const res = await target.admin
      .post('/admin/catalogue/import', {
        manufacturers: [{ key: 'never-written', name: 'Never' }],
        search_synonyms: [{ key: 'bad', kind: 'two_way', terms: ['only one'] }],
      })
      .expect(422);
    expect(res.body.errors).toMatch(/search_synonyms\[0\]\.terms/);
    expect((await all(target)).some((r) => r.key === 'bad')).toBe(false);
    expect((await t.db.query(`SELECT 1 FROM manufacturers WHERE tenant_id = $1 AND key = 'never-written'`, [target.tenant.id])).length).toBe(0);

    // the synonyms' own scopes: a catalogue token without Shop/search/write may not write them through the import
    // (403, nothing written), and one without Shop/search/read exports the document without them
    const mint = async (scopes: string[]) =>
      t.client(
        (await target.admin.post('/admin/access_tokens', { tier: 'admin', label: 'catalogue only', scopes }).expect(201)).body.access_token.token as string,
      );
    const catalogueOnly = await mint(['Shop/catalogue/read', 'Shop/catalogue/write']);
    const refused = await catalogueOnly
      .post('/admin/catalogue/import', { manufacturers: [{ key: 'not-by-this-token', name: 'No' }], search_synonyms: doc.search_synonyms })
      .expect(403);
    expect(refused.body.errors).toMatch(/Shop\/search\/write/);
    expect((await t.db.query(`SELECT 1 FROM manufacturers WHERE tenant_id = $1 AND key = 'not-by-this-token'`, [target.tenant.id])).length).toBe(0);
    const { search_synonyms: _rules, ...withoutRules } = doc as Record<string, unknown>;
    await catalogueOnly.post('/admin/catalogue/import', withoutRules).expect(200);
    expect(Object.keys((await catalogueOnly.get('/admin/catalogue/export').expect(200)).body)).not.toContain('search_synonyms');
    const ndjson = (await catalogueOnly.get('/admin/catalogue/export?format=ndjson').expect(200)).text;
    expect(ndjson).not.toContain('"search_synonyms"');
    const withSearch = await mint(['Shop/catalogue/read', 'Shop/catalogue/write', 'Shop/search/read', 'Shop/search/write']);
    expect((await withSearch.get('/admin/catalogue/export').expect(200)).body.search_synonyms).toEqual(
      (await target.admin.get('/admin/search/synonyms/export').expect(200)).body.document.search_synonyms,
    );
    await withSearch.post('/admin/catalogue/import', doc).expect(200);
  });

  it('the engine reader: cached per shop, its version bumps on each change, heard by a second instance (plain SQL too)', async () => {
    const reader = t.get(SearchSynonymsService);
    const cfg = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', RATE_LIMIT: 'off' });
    b = await createShopApp({ config: cfg, databaseUrl: t.databaseUrl });
    const readerB = b.get(SearchSynonymsService);
    const termsOf = async (r: SearchSynonymsService) => (await r.rulesFor(shop.tenant.id)).flatMap((x) => x.terms);
    expect(await termsOf(readerB)).toContain('syrah');
    const v = reader.version(shop.tenant.id);
    const vB = readerB.version(shop.tenant.id);
    const vOther = reader.version(other.tenant.id);
    // an admin write: this instance sees it at once, the other within a second
    const rule = (await shop.admin.post('/admin/search/synonyms', { kind: 'two_way', terms: ['vin jaune', 'savagnin'] }).expect(201)).body
      .search_synonym as Rule;
    expect(reader.version(shop.tenant.id)).toBeGreaterThan(v);
    expect(await termsOf(reader)).toContain('savagnin');
    await until('instance B hears the new rule', async () => (await termsOf(readerB)).includes('savagnin'));
    expect(readerB.version(shop.tenant.id)).toBeGreaterThan(vB);
    expect(reader.version(other.tenant.id)).toBe(vOther);
    // a second read is served from memory: the same frozen array
    expect(await reader.rulesFor(shop.tenant.id)).toBe(await reader.rulesFor(shop.tenant.id));
    // deleted through the API, then a write by plain SQL: both instances hear the table's trigger
    await shop.admin.delete(`/admin/search/synonyms/${rule.id}`).expect(204);
    expect(await termsOf(reader)).not.toContain('savagnin');
    await until('instance B hears the deletion', async () => !(await termsOf(readerB)).includes('savagnin'));
    await t.db.query(`UPDATE search_synonyms SET terms = ARRAY['shiraz', 'syrah', 'sirah'] WHERE tenant_id = $1 AND key = 'default-syrah'`, [shop.tenant.id]);
    await until('instance A hears the SQL write', async () => (await termsOf(reader)).includes('sirah'));
    await until('instance B hears the SQL write', async () => (await termsOf(readerB)).includes('sirah'));
  });
});
