import { describe, expect, it } from '@jest/globals';
import type { CacheBus, CacheDropHandler } from '../common/cluster/cache-bus.js';
import { RequestContext } from '../common/context/request-context.js';
import type { SearchSynonymRow, SearchSynonymsRepository } from './search-synonyms.repository.js';
import { SEARCH_SYNONYMS_CACHE_TOPIC, SearchSynonymsService } from './search-synonyms.service.js';

const row = (id: string, terms: string[]): SearchSynonymRow => ({
  id,
  key: null,
  kind: 'two_way',
  terms,
  synonyms: [],
  created_at: new Date(),
  updated_at: null,
});

/** The engine's reader with the repository and the cache bus faked: what is cached, what drops it, what `version` says. */
function setup(listening = true) {
  const tables = new Map<string, SearchSynonymRow[]>([
    ['t1', [row('r1', ['syrah', 'shiraz'])]],
    ['t2', [row('r2', ['pinot gris', 'pinot grigio'])]],
  ]);
  let reads = 0;
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  const repo = {
    allOf: async (tenantId: string) => {
      reads += 1;
      const held = gate;
      gate = null;
      if (held) await held;
      return tables.get(tenantId) ?? [];
    },
  } as unknown as SearchSynonymsRepository;
  const handlers: CacheDropHandler[] = [];
  const bus = {
    listening,
    subscribe: (topic: string, h: CacheDropHandler) => topic === SEARCH_SYNONYMS_CACHE_TOPIC && handlers.push(h),
    publish: async (_topic: string, tenantId: string | null) => handlers.forEach((h) => h(tenantId)),
  } as unknown as CacheBus;
  const service = new SearchSynonymsService(repo, bus);
  return {
    service,
    tables,
    reads: () => reads,
    hear: (tenantId: string | null) => handlers.forEach((h) => h(tenantId)),
    holdNextRead: () => void (gate = new Promise<void>((done) => (open = done))),
    releaseRead: () => open(),
  };
}

describe('SearchSynonymsService (the engine reader)', () => {
  it('serves a shop from memory after one read; a message for the shop drops it and bumps only its version', async () => {
    const s = setup();
    expect((await s.service.rulesFor('t1')).map((r) => r.terms)).toEqual([['syrah', 'shiraz']]);
    await s.service.rulesFor('t1');
    expect(s.reads()).toBe(1);
    const v1 = s.service.version('t1');
    const v2 = s.service.version('t2');
    s.tables.set('t1', [row('r1', ['syrah', 'shiraz', 'sirah'])]);
    s.hear('t1');
    expect(s.service.version('t1')).toBeGreaterThan(v1);
    expect(s.service.version('t2')).toBe(v2);
    expect((await s.service.rulesFor('t1'))[0].terms).toEqual(['syrah', 'shiraz', 'sirah']);
    expect(s.reads()).toBe(2);
  });

  it('a message for every shop (after a reconnect) drops all and bumps every version', async () => {
    const s = setup();
    await s.service.rulesFor('t1');
    await s.service.rulesFor('t2');
    const before = [s.service.version('t1'), s.service.version('t2')];
    s.hear(null);
    expect(s.service.version('t1')).toBeGreaterThan(before[0]);
    expect(s.service.version('t2')).toBeGreaterThan(before[1]);
    await s.service.rulesFor('t1');
    await s.service.rulesFor('t2');
    expect(s.reads()).toBe(4);
  });

  it('a read that a drop overtook is served but not kept', async () => {
    const s = setup();
    s.holdNextRead();
    const pending = s.service.rulesFor('t1');
    await Promise.resolve();
    s.hear('t1');
    s.releaseRead();
    await pending;
    await s.service.rulesFor('t1');
    expect(s.reads()).toBe(2);
  });

  it('keeps nothing while the bus is not listening', async () => {
    const s = setup(false);
    await s.service.rulesFor('t1');
    await s.service.rulesFor('t1');
    expect(s.reads()).toBe(2);
  });

  it('a committed write of this instance drops at once; inside an open transaction it waits for the trigger', async () => {
    const s = setup();
    await s.service.rulesFor('t1');
    const v = s.service.version('t1');
    const inTx = RequestContext.forTenant('t1').withManager({ queryRunner: { isTransactionActive: true } } as never);
    await s.service.changed(inTx);
    expect(s.service.version('t1')).toBe(v);
    await s.service.changed(RequestContext.forTenant('t1'));
    expect(s.service.version('t1')).toBeGreaterThan(v);
  });
});
