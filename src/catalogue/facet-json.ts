import type { RequestContext } from '../common/context/request-context.js';
import type { FacetDto, FacetValueDto } from './dto/catalogue.dto.js';
import type { Snapshot } from './facet-name-snapshot.service.js';
import type { CatalogueSearchResult } from '../extensions/index.js';
import { withBuffer } from './preserialized-json.js';
import { nameOf } from './product-json.service.js';

interface Named {
  name: string | null;
  value: string | null;
  /** UTF-8 of `{"id":…,"name":…,"value":…,"count":` */
  prefix: Buffer;
}

/** Per name snapshot (replaced when names change) and language: each facet value's name and JSON prefix. */
const named = new WeakMap<Snapshot, Map<string, Map<string, Named>>>();

type Groups = NonNullable<CatalogueSearchResult['facets']>;

/** A facet group whose value DTOs are made only if something reads them (the response splices the bytes). */
class LazyGroup {
  private made: FacetValueDto[] | null = null;
  constructor(
    readonly key: FacetDto['key'],
    private readonly src: Groups[number]['values'],
    private readonly names: Map<string, Named>,
  ) {}
  get values(): FacetValueDto[] {
    this.made ??= this.src.map(({ id, count }) => ({ id, name: this.names.get(id)!.name, value: this.names.get(id)!.value, count }));
    return this.made;
  }
  toJSON(): FacetDto {
    return { key: this.key, values: this.values } as FacetDto;
  }
}

/**
 * The facet DTOs of an engine answer (in SPEC order, ranked), named in the active language. Their JSON is written
 * straight into one buffer from per-value UTF-8 prefixes kept per name snapshot and language
 * (`{"id":…,"name":…,"value":…,"count":`) plus the count's digits: a large category's facets (10,000 producers,
 * hundreds of kilobytes) cost a copy per value, not an object and a `JSON.stringify` each. The bytes are exactly
 * `JSON.stringify` of the returned array (`withBuffer`; the response splices them in).
 */
export function namedFacets(ctx: RequestContext, snap: Snapshot, groups: Groups): FacetDto[] {
  // the engine hands out the same groups object for a whole category's counts (its statistics row): written once per language
  const key = `${ctx.language}/${ctx.defaultLanguage}|${snap.at}`;
  let done = written.get(groups);
  const hit = done?.get(key);
  if (hit) return hit;
  const out = write(ctx, snap, groups);
  if (!done) written.set(groups, (done = new Map<string, FacetDto[]>()));
  if (done.size > 8) done.clear();
  done.set(key, out);
  return out;
}

/** Facet JSON already written, per engine groups object and language/snapshot. */
const written = new WeakMap<Groups, Map<string, FacetDto[]>>();

function write(ctx: RequestContext, snap: Snapshot, groups: Groups): FacetDto[] {
  let byLang = named.get(snap);
  if (!byLang) named.set(snap, (byLang = new Map<string, Map<string, Named>>()));
  const lang = `${ctx.language}/${ctx.defaultLanguage}`;
  let names = byLang.get(lang);
  if (!names) byLang.set(lang, (names = new Map<string, Named>()));
  // each value's name entry, looked up once (by its id) and kept in value order for the write below
  const found: Named[] = [];
  let size = 2;
  for (const { key, values } of groups) {
    size += key.length + 24;
    for (const { id } of values) {
      let n = names.get(id);
      if (!n) {
        const e = snap.entries.get(id);
        const name = e ? nameOf(e.name, ctx) : null;
        const value = key === 'custom_fields' ? (e?.value ?? null) : null;
        n = {
          name,
          value,
          prefix: Buffer.from(`{"id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"value":${JSON.stringify(value)},"count":`, 'utf8'),
        };
        names.set(id, n);
      }
      found.push(n);
      size += n.prefix.length + 13;
    }
  }
  const out = Buffer.allocUnsafe(size);
  let pos = out.write('[', 0, 'latin1');
  let at = 0;
  groups.forEach(({ key, values }, g) => {
    pos += out.write(`${g > 0 ? ',' : ''}{"key":${JSON.stringify(key)},"values":[`, pos, 'latin1');
    for (let i = 0; i < values.length; i++) {
      if (i > 0) out[pos++] = 0x2c; // ,
      const prefix = found[at++].prefix;
      out.set(prefix, pos);
      pos += prefix.length;
      pos = digits(out, pos, values[i].count);
      out[pos++] = 0x7d; // }
    }
    pos += out.write(']}', pos, 'latin1');
  });
  pos += out.write(']', pos, 'latin1');
  return withBuffer(
    groups.map(({ key, values }) => new LazyGroup(key, values, names) as unknown as FacetDto),
    out.subarray(0, pos),
  );
}

/** Writes a non-negative integer's decimal digits at `pos`; returns the position after them. */
function digits(out: Buffer, pos: number, n: number): number {
  if (n < 10) {
    out[pos] = 0x30 + n;
    return pos + 1;
  }
  if (!Number.isSafeInteger(n) || n < 0) return pos + out.write(String(n), pos, 'latin1');
  let len = 0;
  for (let m = n; m > 0; m = Math.floor(m / 10)) len++;
  for (let i = pos + len - 1; i >= pos; i--) {
    out[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return pos + len;
}
