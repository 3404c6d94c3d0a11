import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textTokens } from '../../src/catalogue-search/index.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { CATEGORIES, FACETS, fixtureImport, GRAPES, MANUFACTURERS, PRODUCTS, Row, ROWS } from './catalogue.fixture.js';

type Ids = Record<string, any>;
type Item = { id: string; label: string; count: number; filter?: { param: string; value: string }; handle?: string | null };
type Group = { kind: string; label: string; items: Item[] };
type Cand = Item & { kind: string; quality: number };
type Name = string | Record<string, string | undefined>;

const name = (n: Name, lang: string) => (typeof n === 'string' ? n : (n[lang] ?? n.en!));
const products = (rows: Row[]) => new Set(rows.map((r) => r.product)).size;

/**
 * Brute force (issue 35, README "Search"): how a label matches the typed words. 4: the label is exactly the words;
 * 3: its words begin with the typed ones in order; 2: a later run of its words does; 1: each typed word begins some
 * word of the label; 0: no match.
 */
function quality(q: string, label: string): number {
  const w = textTokens(q).slice(0, 8);
  const t = textTokens(label);
  if (w.length === 0) return 0;
  const run = (j: number) => w.every((x, i) => (t[j + i] ?? '').startsWith(x));
  if (run(0)) return t.length === w.length && w.every((x, i) => t[i] === x) ? 4 : 3;
  for (let j = 1; j < t.length; j++) if (run(j)) return 2;
  return w.every((x) => t.some((y) => y.startsWith(x))) ? 1 : 0;
}

describe('storefront search suggestions: GET /search/suggest (issue 35)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  let collections: Array<{ id: string; handle: string; title: string; products_count: number }>;
  const titles = new Map<string, Name>(PRODUCTS.map((p) => [p.key, p.de ? { en: p.title, de: p.de } : p.title]));

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200)).body.import.ids;
    collections = (await shop.storefront.get('/collections').expect(200)).body.collections;
  });
  afterAll(() => t.close());

  /** Every suggestion the fixture offers for `q` in `lang`, ranked and grouped as the README says. */
  function model(q: string, lang: string, limit: number): Array<{ kind: string; items: Item[] }> {
    const c: Cand[] = [];
    const add = (kind: string, id: string, label: string, rows: Row[], extra: Partial<Item>) => {
      const qual = quality(q, label);
      const count = products(rows);
      if (qual > 0 && count > 0) c.push({ kind, id, label, count, quality: qual, ...extra });
    };
    for (const p of PRODUCTS) {
      const label = name(titles.get(p.key)!, lang);
      add(
        'product',
        ids.products[p.key],
        label,
        ROWS.filter((r) => r.product === p.key),
        { handle: `${p.key}-${p.title.toLowerCase().replace(/\s+/g, '-')}` },
      );
    }
    for (const m of MANUFACTURERS)
      add(
        'producer',
        ids.manufacturers[m.key],
        m.name,
        ROWS.filter((r) => r.manufacturer === m.key),
        { filter: { param: 'vendor', value: ids.manufacturers[m.key] } },
      );
    const dims = [
      ['color', 'colors', (r: Row) => r.color],
      ['size', 'sizes', (r: Row) => r.size],
      ['year', 'years', (r: Row) => r.year],
      ['country', 'countries', (r: Row) => r.country],
      ['region', 'regions', (r: Row) => r.region],
    ] as const;
    for (const [kind, dim, of] of dims)
      for (const f of FACETS[dim] as Array<{ key: string; name: Name }>) {
        const id = ids.facets[dim][f.key];
        add(
          kind,
          id,
          name(f.name, lang),
          ROWS.filter((r) => of(r) === f.key),
          { filter: { param: `${kind}_id`, value: id } },
        );
      }
    for (const g of GRAPES) {
      const id = ids.custom_field_options[g];
      add(
        'grape',
        id,
        g[0].toUpperCase() + g.slice(1),
        ROWS.filter((r) => r.grapes.includes(g)),
        { filter: { param: 'custom_field:grape', value: id } },
      );
    }
    for (const cat of CATEGORIES) {
      const id = ids.categories[cat.key];
      add(
        'category',
        id,
        name(cat.name, lang),
        ROWS.filter((r) => r.categories.includes(cat.key)),
        { filter: { param: 'category_id', value: id } },
      );
    }
    for (const col of collections) {
      const qual = quality(q, col.title);
      if (qual > 0 && col.products_count > 0)
        c.push({ kind: 'collection', id: col.id, label: col.title, count: col.products_count, quality: qual, handle: col.handle });
    }
    const kinds = ['product', 'producer', 'color', 'size', 'year', 'country', 'region', 'grape', 'category', 'collection'];
    const fold = (s: string) => textTokens(s).join(' ');
    c.sort(
      (a, b) =>
        b.quality - a.quality ||
        b.count - a.count ||
        (fold(a.label) < fold(b.label) ? -1 : fold(a.label) > fold(b.label) ? 1 : 0) ||
        kinds.indexOf(a.kind) - kinds.indexOf(b.kind) ||
        (a.id < b.id ? -1 : 1),
    );
    const top = c.slice(0, limit);
    return kinds
      .map((kind) => ({ kind, items: top.filter((x) => x.kind === kind).map(({ kind: _k, quality: _q, ...item }) => item) }))
      .filter((g) => g.items.length > 0);
  }

  const suggest = async (q: string, extra = '') =>
    (await shop.storefront.get(`/search/suggest?q=${encodeURIComponent(q)}${extra}`).expect(200)).body as { data: Group[] };
  const bare = (groups: Group[]) => groups.map((g) => ({ kind: g.kind, items: g.items }));

  it.each([
    ['rie', 'en', 8],
    ['r', 'en', 20],
    ['r', 'en', 3],
    ['ro', 'de', 20],
    ['we', 'de', 20],
    ['w', 'en', 20],
    ['al', 'de', 8],
    ['mer', 'en', 8],
    ['bor', 'en', 8],
    ['to', 'de', 8],
    ['sta', 'en', 8],
    ['red w', 'en', 8],
    ['20', 'en', 20],
    ['2019', 'en', 8],
    ['75', 'en', 8],
    ['f', 'de', 20],
    ['chat laf', 'en', 8],
    ['muller', 'en', 8],
    ['a', 'en', 20],
  ])('matches the brute-force model: q=%s, language %s, limit %d', async (q, lang, limit) => {
    const body = await suggest(q, `&limit=${limit}&locale=${lang}`);
    expect(bare(body.data)).toEqual(model(q, lang, limit));
    expect(body.data.reduce((n, g) => n + g.items.length, 0)).toBeLessThanOrEqual(limit);
  });

  it('"rie" lists the Riesling grape with its visible products, filtering through custom_field:grape; the default limit is 8', async () => {
    const body = await suggest('rie');
    const grape = body.data.find((g) => g.kind === 'grape')!;
    expect(grape.label).toBe('Grape');
    expect(grape.items[0]).toEqual({
      id: ids.custom_field_options.riesling,
      label: 'Riesling',
      count: products(ROWS.filter((r) => r.grapes.includes('riesling'))),
      filter: { param: 'custom_field:grape', value: ids.custom_field_options.riesling },
    });
    expect(body.data.map((g) => g.kind)).toEqual(model('rie', 'en', 8).map((g) => g.kind));
    const many = await suggest('a');
    expect(many.data.reduce((n, g) => n + g.items.length, 0)).toBe(
      Math.min(
        8,
        model('a', 'en', 100).reduce((n, g) => n + g.items.length, 0),
      ),
    );
    // the group's name in the active language
    expect((await suggest('rie', '&locale=de')).data.find((g) => g.kind === 'grape')!.label).toBe('Traube');
    expect((await suggest('rie', '&locale=de')).data.find((g) => g.kind === 'product')!.label).toBe('Produkte');
  });

  it('hidden products are neither suggested nor counted', async () => {
    expect((await suggest('hotel')).data).toEqual([]);
    const hidden = PRODUCTS.filter((p) => p.published === false).map((p) => ids.products[p.key]);
    const all = (await suggest('a', '&limit=20')).data.flatMap((g) => g.items.map((i) => i.id));
    for (const id of hidden) expect(all).not.toContain(id);
    // 150 cl: a hidden variant of a visible product does not count
    const size = (await suggest('150')).data.find((g) => g.kind === 'size')!.items[0];
    expect(size.count).toBe(products(ROWS.filter((r) => r.size === '150cl')));
  });

  it('labels in the active language (locale, then Accept-Language)', async () => {
    const de = await suggest('rot', '&locale=de');
    expect(de.data.find((g) => g.kind === 'color')!.items.map((i) => i.label)).toEqual(['Rot']);
    expect(de.data.find((g) => g.kind === 'category')!.items.map((i) => i.label)).toEqual(['Rotwein']);
    const en = await suggest('rot');
    expect(en.data).toEqual([]);
    const header = (await shop.storefront.get('/search/suggest?q=weis').set('Accept-Language', 'de').expect(200)).body as { data: Group[] };
    expect(bare(header.data)).toEqual(model('weis', 'de', 8));
  });

  it('labels in the active language only: a title and a facet value translated in de and fr match and show in that language', async () => {
    const other = await t.createShop();
    const doc = fixtureImport() as {
      settings: { languages: string[] };
      products: Array<Record<string, unknown>>;
      facets: { regions: Array<{ key: string; name: unknown }> };
      custom_fields: Array<{ options: Array<{ key: string; name: unknown }> }>;
    };
    doc.settings.languages = ['en', 'de', 'fr'];
    doc.products.find((p) => p.key === 'p1')!.title = { en: 'Sunset Cuvée', de: 'Abendrot Cuvée', fr: 'Cuvée Crépuscule' };
    doc.facets.regions.find((r) => r.key === 'bordeaux')!.name = { en: 'Gironde Estuary', de: 'Girondemündung', fr: 'Estuaire de la Gironde' };
    doc.custom_fields[0].options.find((o) => o.key === 'merlot')!.name = { en: 'Merlot', de: 'Merlot', fr: 'Merlot noir' };
    const oid = (await other.admin.post('/admin/catalogue/import', doc).expect(200)).body.import.ids;
    const ask = async (q: string, locale: string) =>
      ((await other.storefront.get(`/search/suggest?limit=20&q=${encodeURIComponent(q)}&locale=${locale}`).expect(200)).body as { data: Group[] }).data;
    const labels = (groups: Group[], kind: string) =>
      groups
        .find((g) => g.kind === kind)
        ?.items.filter((i) => i.id === id(kind))
        .map((i) => i.label) ?? [];
    const id = (kind: string) => (kind === 'product' ? oid.products.p1 : kind === 'region' ? oid.facets.regions.bordeaux : oid.custom_field_options.merlot);
    // each language finds its own words and shows its own label
    expect(labels(await ask('sunset', 'en'), 'product')).toEqual(['Sunset Cuvée']);
    expect(labels(await ask('abendrot', 'de'), 'product')).toEqual(['Abendrot Cuvée']);
    expect(labels(await ask('crep', 'fr'), 'product')).toEqual(['Cuvée Crépuscule']);
    expect(labels(await ask('cuvee', 'fr'), 'product')).toEqual(['Cuvée Crépuscule']);
    expect(labels(await ask('estuaire', 'fr'), 'region')).toEqual(['Estuaire de la Gironde']);
    expect(labels(await ask('gironde', 'de'), 'region')).toEqual(['Girondemündung']);
    expect(labels(await ask('merlot', 'fr'), 'grape')).toEqual(['Merlot noir']);
    // another language's words never surface that language's label, nor the active one's unmatched label
    for (const [q, locale] of [
      ['abendrot', 'en'],
      ['abendrot', 'fr'],
      ['sunset', 'de'],
      ['sunset', 'fr'],
      ['crep', 'en'],
      ['crep', 'de'],
      ['estuaire', 'en'],
      ['estuary', 'fr'],
      ['noir', 'en'],
    ] as const) {
      const all = (await ask(q, locale)).flatMap((g) => g.items.map((i) => i.label));
      expect({ q, locale, all }).toEqual({ q, locale, all: [] });
    }
  });

  it('ETag and 304 on If-None-Match, like the other catalogue reads; documented', async () => {
    const first = await shop.storefront.get('/search/suggest?q=rie').expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    await shop.storefront.get('/search/suggest?q=rie').set('If-None-Match', etag).expect(304);
    await shop.storefront.get('/search/suggest?q=bor').set('If-None-Match', etag).expect(200);
  });

  it.each([
    ['', 'q'],
    ['&q=', 'q'],
    ['&q=%20%20', 'q'],
    [`&q=${'a'.repeat(201)}`, 'q'],
    ['&q=rie&limit=0', 'limit'],
    ['&q=rie&limit=21', 'limit'],
    ['&q=rie&limit=abc', 'limit'],
    ['&q=rie&limit=1.5', 'limit'],
    ['&q=rie&limit=-1', 'limit'],
  ])('422 naming the member for bad input (%s)', async (query, member) => {
    const res = await shop.storefront.get(`/search/suggest?x=1${query}`).expect(422);
    expect(res.body.errors).toContain(member);
  });

  it('a q of no letters or digits answers an empty list', async () => {
    expect((await suggest('-- !')).data).toEqual([]);
  });

  it('deltas reach the suggestions: a product rename, a new producer', async () => {
    expect(bare((await suggest('zeb')).data)).toEqual([]);
    await shop.admin.put(`/admin/products/${ids.products.p2}`, { title: 'Zebra Riesling' }).expect(200);
    const renamed = await suggest('zeb');
    expect(renamed.data).toEqual([
      { kind: 'product', label: 'Products', items: [{ id: ids.products.p2, label: 'Zebra Riesling', count: 1, handle: 'p2-bravo-riesling' }] },
    ]);
    expect((await suggest('bravo')).data.flatMap((g) => g.items.map((i) => i.id))).not.toContain(ids.products.p2);

    expect((await suggest('nouv')).data).toEqual([]);
    const doc = fixtureImport() as { manufacturers: Array<Record<string, unknown>>; products: Array<Record<string, unknown>> };
    doc.manufacturers.push({ key: 'nouveau', name: 'Domaine Nouveauté', logo_url: null });
    const p3 = doc.products.find((p) => p.key === 'p3')!;
    p3.manufacturer = 'nouveau';
    const reimport = (await shop.admin.post('/admin/catalogue/import', doc).expect(200)).body.import.ids;
    const producer = await suggest('nouv');
    expect(producer.data).toEqual([
      {
        kind: 'producer',
        label: 'Producers',
        items: [
          { id: reimport.manufacturers.nouveau, label: 'Domaine Nouveauté', count: 1, filter: { param: 'vendor', value: reimport.manufacturers.nouveau } },
        ],
      },
    ]);
    // and the text search finds the product by its new producer
    const found = (await shop.storefront.get('/products?q=nouveaute').expect(200)).body.products.map((p: { id: string }) => p.id);
    expect(found).toEqual([ids.products.p3]);
  });

  it('collections reach the suggestions at once: created, renamed, unpublished, deleted (answers are kept per collections read)', async () => {
    const titles = async (q: string) => (await suggest(q, '&limit=20')).data.find((g) => g.kind === 'collection')?.items.map((i) => i.label) ?? [];
    expect(await titles('quokka')).toEqual([]); // asked twice: the empty answer is kept
    expect(await titles('quokka')).toEqual([]);
    const rules = JSON.stringify({ all: [{ field: 'title', contains: 'a' }] });
    const made = (await shop.admin.post('/admin/collections', { title: 'Quokka Picks', collection_type: 'smart', rules_json: rules }).expect(201)).body
      .collection as { id: string; handle: string; products_count: number };
    expect(made.products_count).toBeGreaterThan(0);
    const item = { id: made.id, label: 'Quokka Picks', count: made.products_count, handle: made.handle };
    expect((await suggest('quokka')).data).toEqual([{ kind: 'collection', label: 'Collections', items: [item] }]);
    await shop.admin.put(`/admin/collections/${made.id}`, { title: 'Quokka Favourites' }).expect(200);
    expect(await titles('quokka')).toEqual(['Quokka Favourites']);
    await shop.admin.put(`/admin/collections/${made.id}`, { published: false }).expect(200);
    expect(await titles('quokka')).toEqual([]);
    await shop.admin.put(`/admin/collections/${made.id}`, { published: true }).expect(200);
    expect(await titles('quokka')).toEqual(['Quokka Favourites']);
    // a write by plain SQL reaches every instance through the table's trigger (at commit, within milliseconds)
    await t.db.query(`UPDATE collections SET title = '{"en": "Quokka Corner"}' WHERE id = $1`, [made.id]);
    let seen: string[] = [];
    for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 50)))
      if ((seen = await titles('quokka'))[0] === 'Quokka Corner') break;
    expect(seen).toEqual(['Quokka Corner']);
    await shop.admin.delete(`/admin/collections/${made.id}`).expect(204);
    expect(await titles('quokka')).toEqual([]);
  });
});
