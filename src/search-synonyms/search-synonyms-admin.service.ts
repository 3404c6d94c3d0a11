import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { WINE_SYNONYMS } from './data/wine-synonyms.js';
import {
  mapSearchSynonym,
  type CreateSearchSynonymDto,
  type SearchSynonymDocumentItemDto,
  type SearchSynonymDto,
  type SearchSynonymsDocumentDto,
  type SearchSynonymsImportResultDto,
  type UpdateSearchSynonymDto,
} from './dto/search-synonym.dto.js';
import { SearchSynonymsRepository, type SearchSynonymRow, type SearchSynonymValues } from './search-synonyms.repository.js';
import { SearchSynonymsService } from './search-synonyms.service.js';
import { checkedRule, MAX_RULES_PER_SHOP, sameRule, SynonymRuleError, updatedRule } from './synonym-rules.js';

const MAX_KEY = 100;

/**
 * Admin CRUD, export and import of a shop's search synonyms (issue 35; README "Search synonyms"). Each write runs
 * in one transaction with its domain event (`search_synonym.created|updated|deleted`, through the outbox); after the
 * commit the engine's cached rules are dropped on every instance (`SearchSynonymsService.changed`).
 */
@Injectable()
export class SearchSynonymsAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly events: DomainEvents,
    private readonly repo: SearchSynonymsRepository,
    private readonly reader: SearchSynonymsService,
  ) {}

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<SearchSynonymDto>> {
    const after = page.after ? ([String(page.after[0]), String(page.after[1])] as [string, string]) : null;
    const rows = await this.repo.page(ctx, after, page.limit);
    return this.pager.page(rows, page, (r) => [r.created_at.toISOString(), r.id]).map(mapSearchSynonym);
  }

  async get(ctx: RequestContext, id: string): Promise<SearchSynonymDto> {
    const row = await this.repo.byId(ctx, id);
    if (!row) throw AppError.notFound('search synonym');
    return mapSearchSynonym(row);
  }

  async create(ctx: RequestContext, dto: CreateSearchSynonymDto): Promise<SearchSynonymDto> {
    const values = { key: checkedKey(dto.key, 'key'), ...checked(() => checkedRule(dto)) };
    return this.write(ctx, async (tx) => {
      if ((await this.repo.count(tx)) >= MAX_RULES_PER_SHOP) throw AppError.unprocessable(`a shop has at most ${MAX_RULES_PER_SHOP} search synonym rules`);
      const dtoOut = mapSearchSynonym(await this.repo.insert(tx, values));
      await this.events.emit(tx, 'search_synonym.created', { search_synonym: dtoOut });
      return dtoOut;
    });
  }

  async update(ctx: RequestContext, id: string, dto: UpdateSearchSynonymDto): Promise<SearchSynonymDto> {
    return this.write(ctx, async (tx) => {
      const current = await this.repo.byId(tx, id, true);
      if (!current) throw AppError.notFound('search synonym');
      const rule = checked(() => updatedRule(current, dto));
      const key = dto.key === undefined ? current.key : checkedKey(dto.key, 'key');
      const dtoOut = mapSearchSynonym((await this.repo.update(tx, id, { key, ...rule }))!);
      await this.events.emit(tx, 'search_synonym.updated', { search_synonym: dtoOut });
      return dtoOut;
    });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.write(ctx, async (tx) => {
      if (!(await this.repo.delete(tx, id))) throw AppError.notFound('search synonym');
      await this.events.emit(tx, 'search_synonym.deleted', { search_synonym: { id } });
    });
  }

  /** Every rule, by key (a rule made without one under its id). */
  async export(ctx: RequestContext): Promise<SearchSynonymsDocumentDto> {
    const rows = await this.repo.all(ctx);
    const items = rows.map((r): SearchSynonymDocumentItemDto => ({ key: r.key ?? r.id, kind: r.kind, terms: r.terms, synonyms: r.synonyms }));
    return { search_synonyms: items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
  }

  /**
   * Upserts each rule by key in one transaction (all or nothing), through the admin API's checks and events; a rule
   * equal to the stored one is not written (an identical import changes nothing and emits nothing). A key equal to
   * the id of a keyless rule of the shop (what the export writes for it) updates that rule and gives it the key.
   * Rules the document does not name are kept.
   */
  async import(ctx: RequestContext, doc: SearchSynonymsDocumentDto): Promise<SearchSynonymsImportResultDto> {
    const raw = doc.search_synonyms ?? [];
    const items = raw.map((item, i) => {
      const path = `search_synonyms[${i}].`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw AppError.unprocessable(`search_synonyms[${i}] must be an object`);
      const o = item as Record<string, unknown>;
      const key = checkedKey(o.key, `${path}key`);
      if (key === null) throw AppError.unprocessable(`${path}key is required`);
      return { key, ...checked(() => checkedRule(o, path)) };
    });
    const seen = new Set<string>();
    for (const [i, it] of items.entries()) {
      if (seen.has(it.key)) throw AppError.unprocessable(`search_synonyms[${i}].key "${it.key}" appears twice`);
      seen.add(it.key);
    }
    const out: SearchSynonymsImportResultDto = { created: { search_synonyms: 0 }, updated: { search_synonyms: 0 }, ids: { search_synonyms: {} } };
    return this.write(ctx, async (tx) => {
      let count = await this.repo.count(tx);
      for (const it of items) {
        const row = (await this.repo.byKey(tx, it.key)) ?? (await this.keylessById(tx, it.key));
        if (row && sameRule(row, it) && row.key === it.key) {
          out.ids.search_synonyms[it.key] = row.id;
          continue;
        }
        let written: SearchSynonymRow;
        if (row) {
          written = (await this.repo.update(tx, row.id, it))!;
          out.updated.search_synonyms += 1;
          await this.events.emit(tx, 'search_synonym.updated', { search_synonym: mapSearchSynonym(written) });
        } else {
          if (++count > MAX_RULES_PER_SHOP) throw AppError.unprocessable(`a shop has at most ${MAX_RULES_PER_SHOP} search synonym rules`);
          written = await this.repo.insert(tx, it);
          out.created.search_synonyms += 1;
          await this.events.emit(tx, 'search_synonym.created', { search_synonym: mapSearchSynonym(written) });
        }
        out.ids.search_synonyms[it.key] = written.id;
      }
      return out;
    });
  }

  /** Adds the shipped default rules a shop lacks (by key): for a new shop, inside its creating transaction. */
  addDefaults(ctx: RequestContext): Promise<number> {
    return this.repo.insertMissing(ctx, defaultRules());
  }

  private async keylessById(ctx: RequestContext, key: string): Promise<SearchSynonymRow | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return null;
    const row = await this.repo.byId(ctx, key);
    return row && row.key === null ? row : null;
  }

  /** One transaction; a taken key is 422; the engine's caches drop after the commit. */
  private async write<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await inTransaction(ctx, this.dataSource, work);
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable('key is already the key of another search synonym rule');
      throw err;
    }
    await this.reader.changed(ctx);
    return out;
  }
}

/** The shipped defaults in normal form. */
export function defaultRules(): SearchSynonymValues[] {
  return WINE_SYNONYMS.map((r) => ({ key: r.key, ...checkedRule(r) }));
}

function checked<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof SynonymRuleError) throw AppError.unprocessable(err.message);
    throw err;
  }
}

function checkedKey(value: unknown, member: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw AppError.unprocessable(`${member} must be a string`);
  const key = value.trim();
  if (!key) return null;
  if (key.length > MAX_KEY) throw AppError.unprocessable(`${member} must be at most ${MAX_KEY} characters`);
  return key;
}
