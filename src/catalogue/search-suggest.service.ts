import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrincipalCache } from '../common/auth/principal-cache.js';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { Collection, COLLECTIONS_CACHE_TOPIC, collectionsOf } from '../collections/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import type { Translations } from '../common/db/base.entity.js';
import { translate } from '../common/i18n.js';
import type { SuggestionGroupDto } from './dto/search-suggest.dto.js';
import { FacetNameSnapshot, type Snapshot, type SnapshotEntry } from './facet-name-snapshot.service.js';
import {
  CatalogueIndexService,
  codeCandidates,
  codeProductCount,
  contentMemo,
  firstInOrder,
  matchQuality,
  productCandidates,
  rankAndGroup,
  suggestWords,
  tokensQuality,
  textTokens,
  type SuggestCandidate,
  type ReadonlyTenantIndex,
} from '../catalogue-search/index.js';
import { productTitlesOf } from './catalogue.repository.js';
import { preserialize } from './preserialized-json.js';
import { namesOf, StorefrontCatalogueService } from './storefront-catalogue.service.js';

/** Products whose titles are read (in the active language) per request: the best by their sort title. */
const PRODUCT_CANDIDATES = 50;
/** Product titles kept per tenant (per content version). */
const MAX_TITLES = 20_000;
/** Answers kept per tenant (per content version); when full, the kept ones are dropped and keeping starts again. */
const MAX_ANSWERS = 20_000;
/** Tenants whose published collections are kept. */
const MAX_COLLECTION_TENANTS = 1_000;

/** A tenant's published collections as read once (`serial`: unique per read, a part of the kept answers' key). */
interface KeptCollections {
  serial: number;
  rows: Collection[];
}

type ProductTitle = { id: string; title: Translations; handle: string | null };

/** Kind and listing parameter of each snapshot kind (a custom field's kind is its key). */
const KIND: Record<Exclude<SnapshotEntry['kind'], 'custom_fields'>, [string, string]> = {
  manufacturers: ['producer', 'vendor'],
  colors: ['color', 'color_id'],
  sizes: ['size', 'size_id'],
  years: ['year', 'year_id'],
  countries: ['country', 'country_id'],
  regions: ['region', 'region_id'],
  categories: ['category', 'category_id'],
};

/** Names of the built-in kinds in the demo's languages (others fall back to English). */
const KIND_LABELS: Record<string, Record<string, string>> = {
  en: {
    product: 'Products',
    producer: 'Producers',
    color: 'Colour',
    size: 'Size',
    year: 'Vintage',
    country: 'Country',
    region: 'Region',
    category: 'Categories',
    collection: 'Collections',
  },
  de: {
    product: 'Produkte',
    producer: 'Produzenten',
    color: 'Farbe',
    size: 'Grösse',
    year: 'Jahrgang',
    country: 'Land',
    region: 'Region',
    category: 'Kategorien',
    collection: 'Kollektionen',
  },
  fr: {
    product: 'Produits',
    producer: 'Producteurs',
    color: 'Couleur',
    size: 'Taille',
    year: 'Millésime',
    country: 'Pays',
    region: 'Région',
    category: 'Catégories',
    collection: 'Collections',
  },
  it: {
    product: 'Prodotti',
    producer: 'Produttori',
    color: 'Colore',
    size: 'Formato',
    year: 'Annata',
    country: 'Paese',
    region: 'Regione',
    category: 'Categorie',
    collection: 'Collezioni',
  },
};

/** The index memo entry of the kept answers (per content version). */
const ANSWERS = 'suggest|answers';

/** A kept answer's key: everything else it depends on (the content version is the memo's). */
function answerKey(snap: Snapshot, collections: KeptCollections, language: string, defaultLanguage: string, limit: number, words: string[]): string {
  return `${snap.at}|${collections.serial}|${language}|${defaultLanguage}|${limit}|${words.join(' ')}`;
}

/**
 * `GET /search/suggest` (issue 35): products, producers, facet values (custom-field options under their field's key),
 * categories and collections whose label in the active language begins with what was typed (`matchQuality`), each
 * with the visible products it leads to; the best `limit` overall (quality, then products), grouped by kind in the
 * order product, producer, color, size, year, country, region, custom fields (by position), category, collection.
 * Products and codes come from the catalogue engine's text dictionary (`text-suggest.ts`; the engine is built on
 * a tenant's first read, as for `q`); collections from their table, counted like `GET /collections`.
 */
@Injectable()
export class SearchSuggestService {
  private readonly collections: PrincipalCache<KeptCollections>;
  private serial = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly snapshot: FacetNameSnapshot,
    private readonly engine: CatalogueIndexService,
    private readonly catalogue: StorefrontCatalogueService,
    @Optional() private readonly bus?: CacheBus,
  ) {
    // nothing is kept while the cache bus is down; any write to the collections (their triggers), the catalogue or
    // the shop's settings drops the tenant's copy
    this.collections = new PrincipalCache(Number.POSITIVE_INFINITY, MAX_COLLECTION_TENANTS, () => this.bus?.listening === true);
    const drop = (tenantId: string | null) => this.collections.drop(tenantId);
    for (const topic of [COLLECTIONS_CACHE_TOPIC, 'catalogue', 'tenancy'] as const) bus?.subscribe(topic, drop);
  }

  /**
   * The answer, kept per tenant while the index's content is unchanged, keyed by what else it depends on: the name
   * snapshot's version, the read of the published collections, the active and default language, `limit` and the
   * folded words. Computed (`compute`) on a miss; kept only if the content did not change meanwhile.
   */
  async suggest(ctx: RequestContext, q: string, limit: number): Promise<SuggestionGroupDto[]> {
    const words = suggestWords(q);
    if (words.length === 0) return [];
    const [snap, idx, collections] = await Promise.all([this.snapshot.get(ctx.tenantId), this.engine.get(ctx.tenantId), this.publishedCollections(ctx)]);
    const key = answerKey(snap, collections, ctx.language, ctx.defaultLanguage, limit, words);
    const { map: answers, entry } = contentMemo<string, SuggestionGroupDto[]>(idx, ANSWERS);
    const kept = answers.get(key);
    if (kept) return kept;
    const version = idx.contentVersion;
    // serialized once: every answer that carries it splices these bytes (and their gzip) in (`spliceJson`)
    const out = preserialize(await this.compute(ctx, words, limit, snap, idx, collections));
    if (idx.contentVersion === version) {
      if (answers.size >= MAX_ANSWERS) {
        answers.clear();
        entry.bytes = 64;
      }
      answers.set(key, out);
      entry.bytes += key.length * 2 + 96 + out.reduce((n, g) => n + 64 + g.items.length * 192, 0);
    }
    return out;
  }

  /**
   * The answer `suggest` would give from what it keeps, or undefined where it would read or compute anything (the
   * tenant's index not built, its published collections not kept, no kept answer for the key): the suggest fast
   * lane's lookup (`suggest-fast-lane.ts`). Same key and same currency checks as `suggest` (the index's pending
   * deltas are awaited as there), so it never finds an answer `suggest` would not give.
   */
  async kept(tenantId: string, language: string, defaultLanguage: string, q: string, limit: number): Promise<SuggestionGroupDto[] | undefined> {
    const words = suggestWords(q);
    if (words.length === 0 || !this.engine.has(tenantId)) return undefined;
    const collections = this.collections.get(tenantId);
    if (!collections) return undefined;
    const [snap, idx] = await Promise.all([this.snapshot.get(tenantId), this.engine.get(tenantId)]);
    const memo = idx.memo.get(ANSWERS);
    if (!memo || memo.version !== idx.contentVersion) return undefined;
    return (memo.value as Map<string, SuggestionGroupDto[]>).get(answerKey(snap, collections, language, defaultLanguage, limit, words));
  }

  private async compute(
    ctx: RequestContext,
    words: string[],
    limit: number,
    snap: Snapshot,
    idx: ReadonlyTenantIndex,
    collections: KeptCollections,
  ): Promise<SuggestionGroupDto[]> {
    const names = namesOf(snap);
    idx.text.setNames(idx, names.version, names.of);
    idx.text.sync(idx);
    const candidates: SuggestCandidate[] = [];
    // the folded words of each label met, kept while the content is unchanged (producers, facet values: thousands
    // share a 3-letter prefix in a large shop)
    const { map: labelWords, entry: labelEntry } = contentMemo<string, string[]>(idx, 'suggest|label-words');
    const qualityOf = (label: string) => {
      let t = labelWords.get(label);
      if (t === undefined) {
        labelWords.set(label, (t = textTokens(label)));
        labelEntry.bytes += 48 + label.length * 4;
      }
      return tokensQuality(words, t);
    };

    // facet values, producers, options and categories carried by visible products
    for (const c of codeCandidates(idx, words)) {
      const id = idx.codeIds[c];
      const e = snap.entries.get(id);
      if (!e) continue;
      const label = translate(e.name, ctx) ?? e.value;
      if (!label) continue;
      const quality = qualityOf(label);
      if (quality === 0) continue;
      const count = codeProductCount(idx, c);
      if (count === 0) continue;
      const [kind, param] = this.kindOf(snap, e);
      candidates.push({ kind, id, label, count, quality, filter: { param, value: id } });
    }

    // products: the best by their sort title (all languages' text matched), then their title in the active language
    const { map: folded, entry: foldedEntry } = contentMemo<number, string[]>(idx, 'suggest|title-words');
    const titleWords = (p: number) => {
      let t = folded.get(p);
      if (t === undefined) {
        folded.set(p, (t = textTokens(idx.pTitle[p])));
        foldedEntry.bytes += 48 + idx.pTitle[p].length * 2;
      }
      return t;
    };
    const slots = firstInOrder(
      productCandidates(idx, words).map((p) => ({ p, q: tokensQuality(words, titleWords(p)) })),
      PRODUCT_CANDIDATES,
      (a, b) => b.q - a.q || (idx.pTitle[a.p] < idx.pTitle[b.p] ? -1 : idx.pTitle[a.p] > idx.pTitle[b.p] ? 1 : 0),
    );
    const titles = await this.titlesOf(
      ctx,
      idx,
      slots.map(({ p }) => idx.pIds[p]),
    );
    for (const { p } of slots) {
      const row = titles.get(idx.pIds[p]);
      const label = row ? translate(row.title, ctx) : null;
      const quality = label ? matchQuality(words, label) : 0;
      if (quality > 0) candidates.push({ kind: 'product', id: idx.pIds[p], label: label!, count: 1, quality, handle: row!.handle });
    }

    // published collections
    const matched = collections.rows.flatMap((c) => {
      const label = translate(c.title, ctx);
      const quality = label ? matchQuality(words, label) : 0;
      return quality > 0 ? [{ c, label: label!, quality }] : [];
    });
    if (matched.length > 0) {
      const counts = await this.catalogue.productsCounts(
        ctx,
        matched.map((m) => m.c),
      );
      for (const m of matched) {
        const count = counts.get(m.c.id) ?? 0;
        if (count > 0) candidates.push({ kind: 'collection', id: m.c.id, label: m.label, count, quality: m.quality, handle: m.c.handle });
      }
    }

    const fields = [...snap.fields.values()].sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1)).map((f) => f.key);
    const kinds = ['product', 'producer', 'color', 'size', 'year', 'country', 'region', ...fields, 'category', 'collection'];
    const words_ = KIND_LABELS[ctx.language] ?? KIND_LABELS.en;
    return rankAndGroup(candidates, kinds, limit).map((g) => ({
      kind: g.kind,
      label: words_[g.kind] ?? this.fieldLabel(ctx, snap, g.kind),
      items: g.items.map(({ id, label, count, filter, handle }) => ({
        id,
        label,
        count,
        ...(filter ? { filter } : {}),
        ...(handle !== undefined ? { handle } : {}),
      })),
    }));
  }

  /** The tenant's published collections, kept until a write to them, the catalogue or the settings (see the constructor). */
  private async publishedCollections(ctx: RequestContext): Promise<KeptCollections> {
    const hit = this.collections.get(ctx.tenantId);
    if (hit) return hit;
    const epoch = this.collections.begin();
    const rows = await collectionsOf(managerOf(ctx, this.dataSource), ctx.tenantId, { publishedOnly: true });
    const out = { serial: ++this.serial, rows };
    this.collections.set(ctx.tenantId, epoch, ctx.tenantId, out);
    return out;
  }

  /** Titles and handles of products, kept in the index's memo while its content is unchanged (read on a miss). */
  private async titlesOf(ctx: RequestContext, idx: ReadonlyTenantIndex, ids: string[]): Promise<Map<string, ProductTitle>> {
    const { map: kept, entry: hit } = contentMemo<string, ProductTitle>(idx, 'suggest|titles');
    const missing = ids.filter((id) => !kept.has(id));
    const version = idx.contentVersion;
    const rows = await productTitlesOf(managerOf(ctx, this.dataSource), ctx.tenantId, missing);
    const out = new Map<string, ProductTitle>();
    for (const id of ids) if (kept.has(id)) out.set(id, kept.get(id)!);
    for (const r of rows) {
      out.set(r.id, r);
      // kept only if no product changed while it was read
      if (idx.contentVersion === version && kept.size < MAX_TITLES) {
        kept.set(r.id, r);
        hit.bytes += 200;
      }
    }
    return out;
  }

  private kindOf(snap: Snapshot, e: SnapshotEntry): [string, string] {
    if (e.kind !== 'custom_fields') return KIND[e.kind];
    const key = snap.fields.get(e.fieldId ?? '')?.key ?? 'custom_field';
    return [key, `custom_field:${key}`];
  }

  private fieldLabel(ctx: RequestContext, snap: Snapshot, key: string): string {
    for (const f of snap.fields.values()) if (f.key === key) return translate(f.label, ctx) ?? key;
    return key;
  }
}
