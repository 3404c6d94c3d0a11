import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';

interface Entry {
  gen: number;
  at: number;
  value: Promise<unknown>;
  refreshing?: boolean;
}

/** How long a cached result is served (ms); `CATALOGUE_CACHE_TTL_MS=0` turns the cache off. */
const TTL_MS = (() => {
  const raw = Number(process.env.CATALOGUE_CACHE_TTL_MS ?? 10_000);
  return Number.isFinite(raw) && raw >= 0 ? raw : 10_000;
})();
const MAX_ENTRIES = 2000;

/**
 * A short in-process cache of derived catalogue results (facet counts, price ranges, resolved text matches) keyed
 * by tenant and the normalized filter set. Every change to the search tables of a tenant (import, stock movement)
 * bumps the tenant's generation, which retires its entries at once; the TTL bounds what another instance's writes
 * (or a still-open outer transaction) can leave stale: an expired entry of the current generation is served while
 * one refresh runs. Concurrent misses of one key share one computation.
 */
@Injectable()
export class CatalogueCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();

  constructor(@Optional() bus?: CacheBus) {
    // a change committed through any instance retires this instance's entries too (SearchIndexService.invalidate)
    bus?.subscribe('catalogue', (tenantId) => (tenantId === null ? this.entries.clear() : this.invalidate(tenantId)));
  }

  get enabled(): boolean {
    return TTL_MS > 0;
  }

  /** Retires every cached result of the tenant. */
  invalidate(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }

  async get<T>(tenantId: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (TTL_MS <= 0) return compute();
    const gen = this.generations.get(tenantId) ?? 0;
    const k = `${tenantId}|${key}`;
    const hit = this.entries.get(k);
    const now = Date.now();
    if (hit && hit.gen === gen) {
      if (now - hit.at < TTL_MS) return hit.value as Promise<T>;
      // expired but of the current generation: serve it while one refresh runs (no request waits for the refresh)
      if (!hit.refreshing) {
        hit.refreshing = true;
        const next = compute();
        next.then(
          () => {
            if (this.entries.get(k) === hit) this.entries.set(k, { gen, at: Date.now(), value: next });
          },
          () => (hit.refreshing = false),
        );
      }
      return hit.value as Promise<T>;
    }
    const value = compute();
    const entry: Entry = { gen, at: now, value };
    this.entries.delete(k);
    this.entries.set(k, entry);
    value.catch(() => {
      if (this.entries.get(k) === entry) this.entries.delete(k);
    });
    if (this.entries.size > MAX_ENTRIES) {
      // oldest first (insertion order)
      for (const old of this.entries.keys()) {
        this.entries.delete(old);
        if (this.entries.size <= MAX_ENTRIES * 0.9) break;
      }
    }
    return value;
  }
}
