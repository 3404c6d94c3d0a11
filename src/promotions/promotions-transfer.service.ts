import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import type { PromotionCondition } from './engine/types.js';
import { CreatePromotionDto } from './dto/promotion.dto.js';
import type { CustomerGroupDocumentDto, PromotionDocumentDto, PromotionsDocumentDto, PromotionsImportResultDto } from './dto/promotions-document.dto.js';
import type { Promotion } from './entities/promotion.entity.js';
import { CustomerGroupsRepository, PromotionsRepository } from './promotions.repository.js';
import { PromotionsService } from './promotions.service.js';
import { CataloguePromotionPrices, type PromotionWrites } from './catalogue/catalogue-promotions.service.js';
import { parseActions, parseConditions } from './promotion-rules.js';

const MAX_ITEMS = 10_000;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Export and import of promotions and customer groups with their members (issue 32), in CONTRACT 6's manner: each
 * object upserted by its `key`, the whole document in one transaction (all or nothing), 422 naming the path of the
 * first bad member, a second identical import changing nothing (no write, no event). Promotions are written through
 * `PromotionsService` (the same checks and events as the admin API); each catalogue promotion written is priced into
 * the catalogue after the commit by its event's handler, the timers re-armed once. A customer group condition
 * names groups by key in the document (`group_keys`), so a document moves between shops; the ids in selectors
 * (products, categories, ...) are the shop's own (the catalogue import's `ids` report maps keys to them).
 */
@Injectable()
export class PromotionsTransferService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly promotions: PromotionsRepository,
    private readonly groups: CustomerGroupsRepository,
    private readonly service: PromotionsService,
    private readonly catalogue: CataloguePromotionPrices,
  ) {}

  async export(ctx: RequestContext): Promise<PromotionsDocumentDto> {
    const groups = await this.groups.all(ctx);
    const members = await this.groups.memberEmails(ctx);
    const keyOfGroup = new Map(groups.map((g) => [g.id, g.key ?? g.id]));
    const promotions = await this.promotions.all(ctx);
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    return {
      customer_groups: groups.map((g): CustomerGroupDocumentDto => ({ key: g.key ?? g.id, name: g.name, customers: members.get(g.id) ?? [] })).sort(byKey),
      promotions: promotions.map((p) => documentOf(p, (id) => keyOfGroup.get(id) ?? id)).sort(byKey),
    };
  }

  async import(ctx: RequestContext, doc: PromotionsDocumentDto): Promise<PromotionsImportResultDto> {
    const groupDocs = list(doc.customer_groups, 'customer_groups').map((g, i) => checkedGroup(g, `customer_groups[${i}]`));
    const promotionDocs = list(doc.promotions, 'promotions');
    unique(
      groupDocs.map((g) => g.key),
      'customer_groups',
      'key',
    );
    unique(
      promotionDocs.map((p, i) => keyOf(p, `promotions[${i}]`)),
      'promotions',
      'key',
    );
    const out: PromotionsImportResultDto = {
      created: { customer_groups: 0, promotions: 0 },
      updated: { customer_groups: 0, promotions: 0 },
      ids: { customer_groups: {}, promotions: {} },
    };
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const emails = await this.groups.customerIdsByEmail(tx, [...new Set(groupDocs.flatMap((g) => g.customers))]);
      for (const [i, g] of groupDocs.entries()) {
        let row = (await this.groups.findByKey(tx, g.key)) ?? (await this.groups.findByName(tx, g.name));
        const other = row && row.key !== null && row.key !== undefined && row.key !== g.key;
        if (other) throw AppError.unprocessable(`customer_groups[${i}].name: "${g.name}" is the name of the group with key "${row!.key}"`);
        let changed = false;
        const created = !row;
        if (!row) {
          row = await this.groups.save(tx, { key: g.key, name: g.name });
          out.created.customer_groups += 1;
        } else if (row.name !== g.name || row.key !== g.key) {
          row = await this.groups.save(tx, { ...row, key: g.key, name: g.name });
          changed = true;
        }
        const ids = g.customers.map((e, j) => {
          const id = emails.get(e.toLowerCase());
          if (!id) throw AppError.unprocessable(`customer_groups[${i}].customers[${j}]: no customer of the shop has the email "${e}"`);
          return id;
        });
        if (await this.groups.setMembers(tx, row.id, ids)) changed = true;
        if (changed && !created) out.updated.customer_groups += 1;
        out.ids.customer_groups[g.key] = row.id;
      }
      // the timers of catalogue promotions are re-armed once, after the last one; their events reprice the catalogue after the commit
      const written: PromotionWrites = [];
      const groupIdOf = async (key: string): Promise<string | null> => out.ids.customer_groups[key] ?? (await this.groups.findByKey(tx, key))?.id ?? null;
      for (const [i, raw] of promotionDocs.entries()) {
        const at = `promotions[${i}]`;
        const key = keyOf(raw, at);
        const dto = await checkedPromotion(raw as Record<string, unknown>, at, groupIdOf);
        const existing = await this.promotions.findByKey(tx, key);
        try {
          if (!existing) {
            out.ids.promotions[key] = (await this.service.create(tx, dto, key, written)).id;
            out.created.promotions += 1;
            continue;
          }
          out.ids.promotions[key] = existing.id;
          const next = { key, ...dto };
          if (same(documentOf(existing, null), next)) continue;
          await this.service.update(tx, existing.id, dto, written);
          out.updated.promotions += 1;
        } catch (err) {
          if (err instanceof AppError && err.status === 422) throw AppError.unprocessable(`${at}.${err.message}`);
          throw err;
        }
      }
      await this.catalogue.rearm(tx, written);
      return out;
    });
  }
}

/** A promotion as the document has it (`groupKey` names the groups of customer_group conditions). */
function documentOf(p: Promotion, groupKey: ((id: string) => string) | null): PromotionDocumentDto {
  return {
    key: p.key ?? p.id,
    name: p.name,
    enabled: p.enabled,
    starts_at: p.startsAt ? p.startsAt.toISOString() : null,
    ends_at: p.endsAt ? p.endsAt.toISOString() : null,
    priority: p.priority,
    combines_with: { ...p.combinesWith },
    usage_limit: p.usageLimit,
    usage_limit_per_customer: p.usageLimitPerCustomer,
    code: p.code,
    conditions: groupKey ? p.conditions.map((c) => (c.type === 'customer_group' ? { type: c.type, group_keys: c.group_ids.map(groupKey) } : c)) : p.conditions,
    actions: p.actions,
  };
}

/** The stored form and the incoming one say the same (normalized: dates as ISO, defaults filled, rules as the parser stores them). */
function same(stored: PromotionDocumentDto, next: { key: string } & CreatePromotionDto): boolean {
  const norm = (d: Record<string, unknown>) =>
    JSON.stringify({
      key: d.key,
      name: String(d.name).trim(),
      enabled: d.enabled ?? true,
      starts_at: d.starts_at ? new Date(d.starts_at as string).toISOString() : null,
      ends_at: d.ends_at ? new Date(d.ends_at as string).toISOString() : null,
      priority: d.priority ?? 0,
      combines_with: { product: false, order: false, shipping: false, discount_codes: false, ...(d.combines_with as object) },
      usage_limit: d.usage_limit ?? null,
      usage_limit_per_customer: d.usage_limit_per_customer ?? null,
      code: d.code ?? null,
      conditions: parseConditions(d.conditions ?? []),
      actions: parseActions(d.actions),
    });
  try {
    return norm(stored as unknown as Record<string, unknown>) === norm(next as unknown as Record<string, unknown>);
  } catch {
    return false; // rules the parser refuses: never the same (the update answers 422 naming them)
  }
}

function list(v: unknown, at: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw AppError.unprocessable(`${at} must be a list`);
  if (v.length > MAX_ITEMS) throw AppError.unprocessable(`${at} must hold at most ${MAX_ITEMS} items`);
  return v;
}

function unique(keys: string[], at: string, member: string): void {
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (seen.has(k)) throw AppError.unprocessable(`${at}[${i}].${member} "${k}" appears twice`);
    seen.add(k);
  });
}

function keyOf(v: unknown, at: string): string {
  const key = (v as Record<string, unknown> | null)?.key;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw AppError.unprocessable(`${at} must be an object`);
  if (typeof key !== 'string' || key.trim() === '' || key.length > 200)
    throw AppError.unprocessable(`${at}.key must be a non-empty string of at most 200 characters`);
  return key;
}

function checkedGroup(v: unknown, at: string): { key: string; name: string; customers: string[] } {
  const key = keyOf(v, at);
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 200)
    throw AppError.unprocessable(`${at}.name must be a non-empty string of at most 200 characters`);
  const customers = list(o.customers, `${at}.customers`).map((e, j) => {
    if (typeof e !== 'string' || !EMAIL.test(e)) throw AppError.unprocessable(`${at}.customers[${j}] must be an email`);
    return e;
  });
  return { key, name: o.name.trim(), customers };
}

/** The document's promotion as the admin API's input: the DTO's checks, group keys turned into ids. */
async function checkedPromotion(o: Record<string, unknown>, at: string, groupIdOf: (key: string) => Promise<string | null>): Promise<CreatePromotionDto> {
  const { key: _key, ...members } = o;
  const dto = plainToInstance(CreatePromotionDto, members);
  const [error] = validateSync(dto, { forbidUnknownValues: false });
  if (error) {
    const message = Object.values(error.constraints ?? {})[0] ?? `${error.property} is not valid`;
    throw AppError.unprocessable(`${at}.${message}`);
  }
  // the document is the whole promotion: what it leaves out takes the default (not the stored value)
  dto.enabled ??= true;
  dto.priority ??= 0;
  dto.starts_at ??= null;
  dto.ends_at ??= null;
  dto.usage_limit ??= null;
  dto.usage_limit_per_customer ??= null;
  dto.code ??= null;
  dto.conditions ??= [];
  dto.combines_with = { product: false, order: false, shipping: false, discount_codes: false, ...(dto.combines_with ?? {}) };
  if (Array.isArray(dto.conditions)) {
    dto.conditions = await Promise.all(
      dto.conditions.map(async (c, j) => {
        const cond = c as Record<string, unknown>;
        if (cond?.type !== 'customer_group' || !Array.isArray(cond.group_keys)) return c;
        const ids: string[] = [];
        for (const [k, gk] of (cond.group_keys as unknown[]).entries()) {
          const id = typeof gk === 'string' ? await groupIdOf(gk) : null;
          if (!id) throw AppError.unprocessable(`${at}.conditions[${j}].group_keys[${k}]: no customer group has this key`);
          ids.push(id);
        }
        return { type: 'customer_group', group_ids: ids } satisfies PromotionCondition;
      }),
    );
  }
  return dto;
}
