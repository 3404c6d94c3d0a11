import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { AppConfig } from '../config/app-config.js';

interface Entry {
  gen: number;
  at: number;
  value: Promise<unknown>;
  refreshing?: boolean;
  /** Size of the resolved value in `weigh` units (1 unless the caller weighs it). */
  weight: number;
}

const MAX_ENTRIES = 2000;
/** Bound of the summed weights (a match set weighs its product count): about 100 MB of cached match sets. */
const MAX_WEIGHT = 400_000;

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
  /** How long a cached result is served (ms): `CATALOGUE_CACHE_TTL_MS` (AppConfig), 0 turns the cache off. */
  private readonly ttlMs: number;
  private weight = 0;

  constructor(@Optional() config?: AppConfig, @Optional() bus?: CacheBus) {
    this.ttlMs = config?.CATALOGUE_CACHE_TTL_MS ?? 10_000;
    // a change committed through any instance retires this instance's entries too (SearchIndexService.invalidate)
    bus?.subscribe('catalogue', (tenantId) => (tenantId === null ? this.clear() : this.invalidate(tenantId)));
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Retires every cached result of the tenant. */
  invalidate(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }

  /** Drops every entry (a bus message for all tenants). */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  /**
   * The cached result of `key`, or `compute()` shared by concurrent misses. `weigh` sizes a resolved value (a match
   * set: its product count) so that large values are bounded by MAX_WEIGHT, not only by the entry count.
   */
  async get<T>(tenantId: string, key: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const gen = this.generations.get(tenantId) ?? 0;
    const k = `${tenantId}|${key}`;
    const hit = this.entries.get(k);
    const now = Date.now();
    if (hit && hit.gen === gen) {
      if (now - hit.at < this.ttlMs) return hit.value as Promise<T>;
      // expired but of the current generation: serve it while one refresh runs (no request waits for the refresh)
      if (!hit.refreshing) {
        hit.refreshing = true;
        const next = compute();
        next.then(
          (v) => {
            if (this.entries.get(k) !== hit) return;
            this.drop(k);
            this.store(k, { gen, at: Date.now(), value: next, weight: weigh ? weigh(v) : 1 });
          },
          () => (hit.refreshing = false),
        );
      }
      return hit.value as Promise<T>;
    }
    const value = compute();
    const entry: Entry = { gen, at: now, value, weight: 1 };
    this.drop(k);
    this.store(k, entry);
    value.then(
      (v) => {
        if (!weigh || this.entries.get(k) !== entry) return;
        this.weight += weigh(v) - entry.weight;
        entry.weight = weigh(v);
        this.evict();
      },
      () => {
        if (this.entries.get(k) === entry) this.drop(k);
      },
    );
    return value;
  }

  private store(k: string, entry: Entry): void {
    this.entries.set(k, entry);
    this.weight += entry.weight;
    this.evict();
  }

  private drop(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    this.entries.delete(k);
    this.weight -= e.weight;
  }

  private evict(): void {
    if (this.entries.size <= MAX_ENTRIES && this.weight <= MAX_WEIGHT) return;
    // oldest first (insertion order)
    for (const old of [...this.entries.keys()]) {
      this.drop(old);
      if (this.entries.size <= MAX_ENTRIES * 0.9 && this.weight <= MAX_WEIGHT * 0.9) break;
    }
  }
}
