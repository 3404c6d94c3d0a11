import type { RequestContext } from '../common/context/request-context.js';
import type { FacetDto, FacetValueDto } from './dto/catalogue.dto.js';
import type { Snapshot } from './facet-name-snapshot.service.js';
import type { CatalogueSearchResult } from './index/catalogue-search.js';
import { withJson } from './preserialized-json.js';
import { nameOf } from './product-json.service.js';

interface Named {
  name: string | null;
  value: string | null;
  /** `{"id":…,"name":…,"value":…,"count":` */
  prefix: string;
}

/** Per name snapshot (replaced when names change) and language: each facet value's name and JSON prefix. */
const named = new WeakMap<Snapshot, Map<string, Map<string, Named>>>();

/**
 * The facet DTOs of an engine answer (in SPEC order, ranked), named in the active language, with their JSON built
 * from per-value prefixes kept per name snapshot and language (`{"id":…,"name":…,"value":…,"count":`) plus the
 * count: a large category's facets (10,000 producers, hundreds of kilobytes) cost a concatenation, not a
 * `JSON.stringify` of every value. The bytes are exactly `JSON.stringify` of the returned array (`withJson`).
 */
export function namedFacets(ctx: RequestContext, snap: Snapshot, groups: NonNullable<CatalogueSearchResult['facets']>): FacetDto[] {
  let byLang = named.get(snap);
  if (!byLang) named.set(snap, (byLang = new Map()));
  const lang = `${ctx.language}/${ctx.defaultLanguage}`;
  let names = byLang.get(lang);
  if (!names) byLang.set(lang, (names = new Map()));
  const out: FacetDto[] = [];
  const parts: string[] = [];
  for (const { key, values } of groups) {
    const list: FacetValueDto[] = [];
    const json: string[] = [];
    for (const { id, count } of values) {
      let n = names.get(id);
      if (!n) {
        const e = snap.entries.get(id);
        const name = e ? nameOf(e.name, ctx) : null;
        const value = key === 'custom_fields' ? (e?.value ?? null) : null;
        n = { name, value, prefix: `{"id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"value":${JSON.stringify(value)},"count":` };
        names.set(id, n);
      }
      list.push({ id, name: n.name, value: n.value, count });
      json.push(`${n.prefix}${count}}`);
    }
    out.push({ key, values: list });
    parts.push(`{"key":${JSON.stringify(key)},"values":[${json.join(',')}]}`);
  }
  return withJson(out, `[${parts.join(',')}]`);
}
