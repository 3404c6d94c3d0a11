import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SearchSynonymsService, type SynonymRule } from '../../src/search-synonyms/index.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { CATEGORIES, FACETS, fixtureImport, MANUFACTURERS, Row, ROWS } from './catalogue.fixture.js';
import { boundedDistance, isNumber, textTokens, typoBudget } from '../../src/catalogue-search/index.js';

type Ids = Record<string, any>;

/** Every name of a fixture value (all languages). */
const namesOf = (name: string | Record<string, string | undefined>): string[] =>
  typeof name === 'string' ? [name] : Object.values(name).filter((n): n is string => typeof n === 'string');
const facetNames = (dim: keyof typeof FACETS, key: string | null) => namesOf(FACETS[dim].find((f) => f.key === key)?.name ?? {});

/** Brute force (issue 35): the words a visible variant is found by: its own text and the names of its values. */
function tokensOf(r: Row): string[] {
  const names = [
    ...facetNames('colors', r.color),
    ...facetNames('regions', r.region),
    ...facetNames('sizes', r.size),
    ...facetNames('years', r.year),
    ...facetNames('countries', r.country),
    ...r.grapes.flatMap((g) => [g, g[0].toUpperCase() + g.slice(1)]),
    ...r.categories.flatMap((c) => namesOf(CATEGORIES.find((x) => x.key === c)!.name)),
    MANUFACTURERS.find((m) => m.key === r.manufacturer)!.name,
  ];
  return textTokens(`${r.text} ${names.join(' ')}`);
}
const wordOk = (w: string, tokens: string[]) =>
  tokens.some((t) => t === w || (!isNumber(w) && (t.startsWith(w) || (!isNumber(t) && boundedDistance(w, t, typoBudget(w)) <= typoBudget(w)))));
const model = (q: string) => [...new Set(ROWS.filter((r) => textTokens(q).every((w) => wordOk(w, tokensOf(r)))).map((r) => r.product))].sort();

describe('storefront search (issue 35)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const keyOfProduct = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    ids = (await shop.admin.post('/admin/catalogue/import', fixtureImport()).expect(200)).body.import.ids;
    for (const [k, id] of Object.entries(ids.products)) keyOfProduct.set(id as string, k);
  });
  afterAll(() => t.close());

  const keys = (products: Array<{ id: string }>) => products.map((p) => keyOfProduct.get(p.id)!);
  const search = async (q: string, extra = '') => (await shop.storefront.get(`/products?limit=250&q=${encodeURIComponent(q)}${extra}`).expect(200)).body;

  it.each([
    ['grape (custom field option)', 'riesling'],
    ['grape, misspelt', 'sangiovse'],
    ['region', 'bordeaux'],
    ['region in another language', 'toskana'],
    ['colour', 'rot'],
    ['country', 'germany'],
    ['category with its ancestors', 'wein'],
    ['category, accents and case', 'WEISSWEIN'],
    ['producer, accent folded', 'muller'],
    ['vintage year (a number: exact)', '2019'],
    ['size (a number: exact)', '150'],
    ['words ANDed across fields', 'red bordeaux 2020'],
    ['words ANDed: title and region', 'alpha bordeaux'],
    ['prefix', 'sangio'],
    ['typo, two edits from 9 letters', 'sangiovaze'],
    ['nothing', 'zzzqqq'],
  ])('q matches the brute-force model: %s (%s)', async (_name, q) => {
    const body = await search(q);
    expect(keys(body.products).sort()).toEqual(model(q));
    if (q !== 'zzzqqq') expect(body.products.length).toBeGreaterThan(0);
  });

  it('lists only the variants matching a variant-level word', async () => {
    const body = await search('merlot 150');
    for (const p of body.products) for (const v of p.variants) expect(v.sku).toMatch(/-150$/);
  });

  it('relevance: exact own-text words over facet names over typos', async () => {
    // "riesling" is the grape of p2 and p7; a title word is worth more than a facet name
    const body = await search('merlot');
    const titled = keys(body.products).filter((k) => ['p1'].includes(k));
    expect(titled).toEqual(['p1']);
    expect(keys(body.products)[0]).toBe('p1');
  });

  it('an exact SKU returns only that SKU', async () => {
    const body = await search('ALP-MER-18-150');
    expect(keys(body.products)).toEqual(['p1']);
    expect(body.products[0].variants.map((v: { sku: string }) => v.sku)).toEqual(['ALP-MER-18-150']);
  });

  it('did-you-mean: with include=suggestions and no match, corrected queries with counts', async () => {
    const body = await search('merlxtt', '&include=suggestions');
    expect(body.products).toEqual([]);
    expect(body.meta.suggestions[0]).toEqual({ q: 'merlot', count: model('merlot').length });
    const plain = await search('merlxtt');
    expect(plain.meta).toBeUndefined();
    const found = await search('merlot', '&include=suggestions');
    expect(keys(found.products).length).toBeGreaterThan(0);
    expect(found.meta).toBeUndefined();
  });

  it('synonyms apply at query time: two-way both ways, one-way only from its terms, phrases included', async () => {
    const rules: SynonymRule[] = [
      { id: 'a', kind: 'two_way', terms: ['vino rosso', 'rotwein'], synonyms: [] },
      { id: 'b', kind: 'one_way', terms: ['bubbly'], synonyms: ['riesling', 'golf'] },
    ];
    const service = t.get(SearchSynonymsService);
    const rulesFor = jest.spyOn(service, 'rulesFor').mockResolvedValue(rules);
    const version = jest.spyOn(service, 'version').mockReturnValue(1);
    try {
      const union = (...qs: string[]) => [...new Set(qs.flatMap((q) => model(q)))].sort();
      expect(keys((await search('bubbly')).products).sort()).toEqual(union('riesling', 'golf'));
      expect(keys((await search('riesling')).products).sort()).toEqual(model('riesling'));
      expect(keys((await search('vino rosso')).products).sort()).toEqual(model('rotwein'));
      expect(model('rotwein').length).toBeGreaterThan(0);
      // a deleted rule (a new version) is no longer applied
      rulesFor.mockResolvedValue([]);
      version.mockReturnValue(2);
      expect((await search('bubbly')).products).toEqual([]);
    } finally {
      rulesFor.mockRestore();
      version.mockRestore();
    }
  });

  it('a product rename reaches the text (the delta)', async () => {
    expect(keys((await search('zinfandel')).products)).toEqual([]);
    await shop.admin.put(`/admin/products/${ids.products.p1}`, { title: 'Zinfandel Special' }).expect(200);
    expect(keys((await search('zinfandel')).products)).toEqual(['p1']);
    expect(keys((await search('zinfandl')).products)).toEqual(['p1']);
    // the old title's words stay findable through the unchanged handle (p1-alpha-merlot)
    expect(keys((await search('alpha')).products)).toContain('p1');
  });

  it('accents and case folded through HTTP: "cote du rhone" finds "Côtes du Rhône"', async () => {
    expect(keys((await search('cote du rhone')).products)).toEqual([]);
    await shop.admin.put(`/admin/products/${ids.products.p3}`, { title: 'Côtes du Rhône Villages' }).expect(200);
    expect(keys((await search('cote du rhone')).products)).toEqual(['p3']);
    expect(keys((await search('CÔTES DU RHÔNE')).products)).toEqual(['p3']);
  });

  it('a new producer reaches the text search (the delta)', async () => {
    expect((await search('nouveaute')).products).toEqual([]);
    const doc = fixtureImport() as { manufacturers: Array<Record<string, unknown>>; products: Array<Record<string, unknown>> };
    doc.manufacturers.push({ key: 'nouveau', name: 'Domaine Nouveauté', logo_url: null });
    doc.products.find((p) => p.key === 'p5')!.manufacturer = 'nouveau';
    await shop.admin.post('/admin/catalogue/import', doc).expect(200);
    expect(keys((await search('nouveaute')).products)).toEqual(['p5']);
    expect(keys((await search('domaine nouv')).products)).toEqual(['p5']);
  });

  it('a synonym created through the admin API expands, and stops expanding once deleted', async () => {
    expect((await search('zzfizz')).products).toEqual([]);
    const rule = (
      await shop.admin
        .post('/admin/search/synonyms')
        .set('Idempotency-Key', 'search-syn-1')
        .send({ kind: 'one_way', terms: ['zzfizz'], synonyms: ['mosel'] })
        .expect(201)
    ).body.search_synonym as { id: string };
    expect(keys((await search('zzfizz')).products).sort()).toEqual(keys((await search('mosel')).products).sort());
    expect((await search('zzfizz')).products.length).toBeGreaterThan(0);
    await shop.admin.delete(`/admin/search/synonyms/${rule.id}`).expect(204);
    expect((await search('zzfizz')).products).toEqual([]);
  });
});
