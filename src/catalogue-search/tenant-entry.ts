import type { BusMessage } from '../common/cluster/cache-bus.js';
import type { ReadonlyTenantIndex, TenantIndexWriter } from './tenant-index-view.js';

/** How long a read waits for this instance to receive a committed change before it rebuilds instead. */
const SYNC_WAIT_MS = 2_000;

/** One tenant's place in `CatalogueIndexService`: its index or build, its pending deltas and read-after-write waits, its memory. */
export interface Entry {
  index: TenantIndexWriter | null;
  building: Promise<TenantIndexWriter> | null;
  /** Deltas received while building, applied once the build is done. */
  buffer: BusMessage[];
  /** Deltas being applied, in version order. */
  chain: Promise<void>;
  /** A wait for a committed change of this instance (read-after-write), when one is pending. */
  sync: Promise<void> | null;
  /** Ids of changes applied (or already in the build), the most recent 4,096. */
  applied: Set<number>;
  /** Reads waiting for a change of this instance's transaction, by change id. */
  changeWaiters: Map<number, () => void>;
  bytes: number;
  /** The engine's bytes as counted in `bytes` (its growth between recounts is added by `search`). */
  engineSeen: number;
  /** Memory held for the laid-out copy while it is made (counted in the budget with `bytes`). */
  reserved: number;
}

/** A tenant's entry before its first build. */
export function newEntry(): Entry {
  return {
    index: null,
    building: null,
    buffer: [],
    chain: Promise.resolve(),
    sync: null,
    applied: new Set(),
    changeWaiters: new Map(),
    bytes: 0,
    engineSeen: 0,
    reserved: 0,
  };
}

/** The memory a tenant's entry counts in the budget: its index with its engine (`bytes`) and its kept answers and facet sets. */
export function counted(e: Entry): number {
  return e.bytes + (e.index ? keptBytes(e.index) : 0);
}

/** Bytes of an index's kept answers and facet sets (`AnswerMemo`s, counted live). */
export function keptBytes(idx: Pick<ReadonlyTenantIndex, 'answers' | 'facetSets'>): number {
  return idx.answers.bytes() + idx.facetSets.bytes();
}

/** A change `id` is in the index (applied, or already in the build's snapshot). */
export function markApplied(e: Entry, id: unknown): void {
  if (typeof id !== 'number') return;
  e.applied.add(id);
  if (e.applied.size > 4096) e.applied.delete(e.applied.values().next().value!);
  e.changeWaiters.get(id)?.();
  e.changeWaiters.delete(id);
}

/** Reads of the entry's tenant wait (`e.sync`) until change `id` is applied; `lost` runs when it is not within `SYNC_WAIT_MS`. */
export function waitForChange(e: Entry, id: number, lost: () => void): void {
  const wait = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      e.changeWaiters.delete(id);
      if (!e.applied.has(id)) lost();
      resolve();
    }, SYNC_WAIT_MS);
    timer.unref();
    e.changeWaiters.set(id, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const prev = e.sync;
  const next: Promise<void> = prev ? Promise.all([prev, wait]).then(() => undefined) : wait;
  e.sync = next;
  void next.then(() => {
    if (e.sync === next) e.sync = null;
  });
}

/**
 * The eviction loop of `CatalogueIndexService.evict` over `tenants` (least recently used first): drops (`drop`)
 * tenants other than `keep` with a built index until the entries and `extra` bytes fit `budget`; true when they do.
 */
export function evictLeastRecent(
  tenants: Map<string, Entry>,
  keep: string,
  budget: number,
  extra: number,
  olderOnly: boolean,
  drop: (tenantId: string) => void,
): boolean {
  const size = (e: Entry) => counted(e) + e.reserved;
  let total = extra;
  let evictable = 0;
  let older = true;
  for (const [id, e] of tenants) {
    total += size(e);
    if (id === keep) older = false;
    else if (e.index && (older || !olderOnly)) evictable += size(e);
  }
  if (olderOnly && total - evictable > budget) return false;
  for (const [id, e] of tenants) {
    if (total <= budget || (olderOnly && id === keep)) break;
    if (id === keep || !e.index) continue;
    total -= size(e);
    drop(id);
  }
  return total <= budget;
}

/** Loaded tenants, their counted bytes and the bytes reserved for layout copies (`CatalogueIndexService.stats`). */
export function entryTotals(entries: Iterable<Entry>): { tenants: number; bytes: number; reservedBytes: number } {
  let bytes = 0;
  let reservedBytes = 0;
  let tenants = 0;
  for (const e of entries) {
    reservedBytes += e.reserved;
    if (!e.index) continue;
    tenants += 1;
    bytes += counted(e);
  }
  return { tenants, bytes, reservedBytes };
}
