import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import type { Pager } from '../common/paging/pager.service.js';
import type { DomainEvents } from '../events/index.js';
import { WINE_SYNONYMS } from './data/wine-synonyms.js';
import { SearchSynonymsAdmin } from './search-synonyms-admin.service.js';
import type { SearchSynonymRow, SearchSynonymsRepository, SearchSynonymValues } from './search-synonyms.repository.js';
import type { SearchSynonymsService } from './search-synonyms.service.js';

/** The admin rules of create, import and the defaults, with the repository, the events and the transaction faked. */
function setup() {
  const rows = new Map<string, SearchSynonymRow>();
  let next = 0;
  const id = () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
  const repo = {
    count: async () => rows.size,
    all: async () => [...rows.values()],
    byId: async (_ctx: RequestContext, rid: string) => rows.get(rid) ?? null,
    byKey: async (_ctx: RequestContext, key: string) => [...rows.values()].find((r) => r.key === key) ?? null,
    insert: async (_ctx: RequestContext, v: SearchSynonymValues) => {
      if (v.key !== null && [...rows.values()].some((r) => r.key === v.key)) throw Object.assign(new Error('duplicate'), { code: '23505' });
      const row: SearchSynonymRow = { id: id(), ...v, created_at: new Date(), updated_at: null };
      rows.set(row.id, row);
      return row;
    },
    insertMissing: async (_ctx: RequestContext, list: readonly SearchSynonymValues[]) => {
      let n = 0;
      for (const v of list)
        if (![...rows.values()].some((r) => r.key === v.key)) {
          rows.set(String(++next), { id: String(next), ...v, created_at: new Date(), updated_at: null });
          n += 1;
        }
      return n;
    },
    update: async (_ctx: RequestContext, rid: string, v: SearchSynonymValues) => {
      const row = { ...rows.get(rid)!, ...v, updated_at: new Date() };
      rows.set(rid, row);
      return row;
    },
  } as unknown as SearchSynonymsRepository;
  const emitted: string[] = [];
  const events = { emit: async (_ctx: RequestContext, topic: string) => void emitted.push(topic) } as unknown as DomainEvents;
  const reader = { changed: async () => undefined } as unknown as SearchSynonymsService;
  const admin = new SearchSynonymsAdmin({} as DataSource, {} as Pager, events, repo, reader);
  // an open transaction: the service runs its work in it
  const ctx = RequestContext.forTenant('t1').withManager({ queryRunner: { isTransactionActive: true } } as never);
  return { admin, rows, emitted, ctx };
}

const message = async (work: Promise<unknown>) =>
  (
    (await work.then(
      () => null,
      (err: Error) => err,
    )) as Error | null
  )?.message;

describe('SearchSynonymsAdmin (repository faked)', () => {
  it('create normalises and emits; a bad rule is 422 naming the member and stores nothing', async () => {
    const s = setup();
    const made = await s.admin.create(s.ctx, { kind: 'two_way', terms: [' Spätburgunder', 'Pinot Noir', 'pinot-noir'], key: ' pn ' });
    expect(made).toMatchObject({ key: 'pn', kind: 'two_way', terms: ['spatburgunder', 'pinot noir'], synonyms: [] });
    expect(s.emitted).toEqual(['search_synonym.created']);
    expect(await message(s.admin.create(s.ctx, { kind: 'one_way', terms: ['bubbly'], synonyms: [] }))).toBe(
      'synonyms must hold at least 1 phrase for a one_way rule',
    );
    expect(await message(s.admin.create(s.ctx, { kind: 'two_way', terms: ['a', 'b'], key: 'pn' }))).toBe(
      'key is already the key of another search synonym rule',
    );
    expect(s.rows.size).toBe(1);
  });

  it('import: upsert by key, an identical second import writes and emits nothing, a keyless rule is adopted by its id', async () => {
    const s = setup();
    const keyless = await s.admin.create(s.ctx, { kind: 'two_way', terms: ['syrah', 'shiraz'] });
    s.emitted.length = 0;
    const doc = {
      search_synonyms: [
        { key: keyless.id, kind: 'two_way', terms: ['Syrah', 'Shiraz', 'Sirah'] },
        { key: 'bubbly', kind: 'one_way', terms: ['bubbly'], synonyms: ['Crémant', 'sekt'] },
      ],
    };
    const first = await s.admin.import(s.ctx, doc);
    expect(first).toEqual({
      created: { search_synonyms: 1 },
      updated: { search_synonyms: 1 },
      ids: { search_synonyms: { [keyless.id]: keyless.id, bubbly: expect.any(String) } },
    });
    expect(s.rows.get(keyless.id)).toMatchObject({ key: keyless.id, terms: ['syrah', 'shiraz', 'sirah'] });
    expect(s.emitted).toEqual(['search_synonym.updated', 'search_synonym.created']);
    const second = await s.admin.import(s.ctx, doc);
    expect(second).toEqual({ created: { search_synonyms: 0 }, updated: { search_synonyms: 0 }, ids: first.ids });
    expect(s.emitted).toHaveLength(2);
    // the export is the document back, by key
    expect((await s.admin.export(s.ctx)).search_synonyms).toEqual([
      { key: keyless.id, kind: 'two_way', terms: ['syrah', 'shiraz', 'sirah'], synonyms: [] },
      { key: 'bubbly', kind: 'one_way', terms: ['bubbly'], synonyms: ['cremant', 'sekt'] },
    ]);
  });

  it('import refuses a bad document before writing anything, naming the member', async () => {
    const s = setup();
    const bad = (search_synonyms: unknown[]) => message(s.admin.import(s.ctx, { search_synonyms }));
    expect(
      await bad([
        { key: 'a', kind: 'two_way', terms: ['x', 'y'] },
        { key: 'b', kind: 'two_way', terms: ['x'] },
      ]),
    ).toBe('search_synonyms[1].terms must hold at least 2 different phrases for a two_way rule');
    expect(await bad([{ key: ' ', kind: 'two_way', terms: ['x', 'y'] }])).toBe('search_synonyms[0].key is required');
    expect(
      await bad([
        { key: 'a', kind: 'two_way', terms: ['x', 'y'] },
        { key: 'a', kind: 'two_way', terms: ['z', 'w'] },
      ]),
    ).toBe('search_synonyms[1].key "a" appears twice');
    expect(await bad([null])).toBe('search_synonyms[0] must be an object');
    expect(s.rows.size).toBe(0);
    expect(s.emitted).toEqual([]);
  });

  it('the defaults: every shipped rule once, a second run adds nothing, a deleted default comes back', async () => {
    const s = setup();
    expect(await s.admin.addDefaults(s.ctx)).toBe(WINE_SYNONYMS.length);
    expect(await s.admin.addDefaults(s.ctx)).toBe(0);
    const syrah = [...s.rows.values()].find((r) => r.key === 'default-syrah')!;
    s.rows.delete(syrah.id);
    expect(await s.admin.addDefaults(s.ctx)).toBe(1);
  });
});
