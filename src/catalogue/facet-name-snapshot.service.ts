import { createHash } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { DataSource } from 'typeorm';
import type { Translations } from '../common/db/base.entity.js';
import { facetNameRows } from './repositories/facet-names.repository.js';

export interface SnapshotEntry {
  kind: 'colors' | 'regions' | 'sizes' | 'years' | 'countries' | 'manufacturers' | 'categories' | 'custom_fields';
  key: string;
  /** Translated name (manufacturers: `{"*": name}`). */
  name: Translations;
  /** Raw value of a custom-field option. */
  value: string | null;
  /** Sort rank within its dimension. */
  rank: number;
  /** Options: their field; categories: their path (root first). */
  fieldId?: string;
  path?: string[];
  logoUrl?: string | null;
}

export interface FieldEntry {
  id: string;
  key: string;
  label: Translations;
  type: string | null;
  position: number;
}

export interface Snapshot {
  /**
   * When this content was first read (ms), strictly increasing in the process: the snapshot's version, unique even
   * for two snapshots made in the same millisecond (a rebuild that reads the same content keeps it).
   */
  at: number;
  /** Digest of the rows it was built from. */
  digest: string;
  entries: Map<string, SnapshotEntry>;
  fields: Map<string, FieldEntry>;
}

const REBUILD_MS = 60_000;

let lastVersion = 0;

/** The next snapshot version: the time in ms, or one more than the last version when the clock has not moved on. */
export function nextSnapshotVersion(): number {
  lastVersion = Math.max(Date.now(), lastVersion + 1);
  return lastVersion;
}

/**
 * The per-tenant filter snapshot (SPEC "Facets"): names and order of every facet value, manufacturer, category and
 * custom-field option, held in memory and rebuilt periodically (every minute, on the first read after that) and
 * after each import. A name is null while the snapshot lacks the id. A rebuild that reads the same rows as the
 * current snapshot keeps the current one (same object, same `at`): what is keyed by the snapshot's version — product
 * JSON, facet JSON, ranked facet codes, the engine's kept answers — lives on until names or order really change.
 */
@Injectable()
export class FacetNameSnapshot {
  private readonly snapshots = new Map<string, { at: number; promise: Promise<Snapshot>; fresh: boolean; rebuilding: boolean }>();

  constructor(
    private readonly dataSource: DataSource,
    @Optional() bus?: CacheBus,
  ) {
    // rebuilt on the next read on every instance after a catalogue change anywhere (SearchIndexService.invalidate)
    bus?.subscribe('catalogue', (tenantId) => (tenantId === null ? this.snapshots.clear() : this.invalidate(tenantId)));
  }

  async get(tenantId: string): Promise<Snapshot> {
    const hit = this.snapshots.get(tenantId);
    if (hit && hit.fresh) {
      // periodic rebuild: the current snapshot keeps serving while the next one is built
      if (Date.now() - hit.at >= REBUILD_MS && !hit.rebuilding) {
        hit.rebuilding = true;
        this.build(tenantId, hit.promise).then(
          (snap) => {
            if (this.snapshots.get(tenantId) === hit)
              this.snapshots.set(tenantId, { at: Date.now(), promise: Promise.resolve(snap), fresh: true, rebuilding: false });
          },
          () => (hit.rebuilding = false),
        );
      }
      return hit.promise;
    }
    const promise = this.build(tenantId, hit?.promise);
    this.snapshots.set(tenantId, { at: Date.now(), promise, fresh: true, rebuilding: false });
    promise.catch(() => this.snapshots.delete(tenantId));
    return promise;
  }

  /** Rebuild on the next read (after an import). */
  invalidate(tenantId: string): void {
    const hit = this.snapshots.get(tenantId);
    if (hit) hit.fresh = false;
  }

  /** Reads the snapshot; the `current` one when the rows are the same. */
  private async build(tenantId: string, current?: Promise<Snapshot>): Promise<Snapshot> {
    const entries = new Map<string, SnapshotEntry>();
    const fields = new Map<string, FieldEntry>();
    const { facets, makers, cats, fieldRows, options } = await facetNameRows(this.dataSource, tenantId);
    const digest = createHash('sha1')
      .update(JSON.stringify([facets, makers, cats, fieldRows, options]))
      .digest('base64');
    const previous = current ? await current.catch(() => null) : null;
    if (previous && previous.digest === digest) return previous;
    facets.forEach((r: { id: string; dimension: SnapshotEntry['kind']; key: string; name: Translations }, i: number) =>
      entries.set(r.id, { kind: r.dimension, key: r.key, name: r.name, value: null, rank: i }),
    );
    makers.forEach((r: { id: string; key: string; name: string | null; logo_url: string | null }, i: number) =>
      entries.set(r.id, { kind: 'manufacturers', key: r.key, name: r.name === null ? {} : { '*': r.name }, value: null, rank: i, logoUrl: r.logo_url }),
    );
    // categories in depth-first tree order
    const byParent = new Map<string, Array<{ id: string; key: string; name: Translations; path: string[] }>>();
    for (const c of cats as Array<{ id: string; key: string; name: Translations; path: string[] }>) {
      const parent = c.path.length > 1 ? c.path[c.path.length - 2] : '';
      if (!byParent.has(parent)) byParent.set(parent, []);
      byParent.get(parent)!.push(c);
    }
    let rank = 0;
    const walk = (parent: string) => {
      for (const c of byParent.get(parent) ?? []) {
        entries.set(c.id, { kind: 'categories', key: c.key, name: c.name, value: null, rank: rank++, path: c.path });
        walk(c.id);
      }
    };
    walk('');
    for (const f of fieldRows as FieldEntry[]) fields.set(f.id, f);
    options.forEach((r: { id: string; key: string; name: Translations; value: string | null; field_id: string }, i: number) =>
      entries.set(r.id, { kind: 'custom_fields', key: r.key, name: r.name, value: r.value, rank: i, fieldId: r.field_id }),
    );
    return { at: nextSnapshotVersion(), digest, entries, fields };
  }
}
