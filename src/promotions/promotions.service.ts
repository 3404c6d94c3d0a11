import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { Extensions, PromotionAction, PromotionCondition, type PromotionCartView } from '../extensions/index.js';
import { promotionClass } from './engine/compile.js';
import type { CombinesWith, EngineHooks, EngineLine } from './engine/types.js';
import { CreatePromotionDto, mapPromotion, PromotionDto, UpdatePromotionDto } from './dto/promotion.dto.js';
import type { Promotion } from './entities/promotion.entity.js';
import { parseActions, parseConditions, RuleError } from './promotion-rules.js';
import { PromotionsRepository } from './promotions.repository.js';
import { CataloguePromotionPrices, type PromotionWrites } from './catalogue/catalogue-promotions.service.js';
import type { StoredPromotion } from './catalogue/catalogue-pricing.js';

const codeTaken = (code: string) => AppError.unprocessable(`code "${code}" is already used by another promotion`);

/** Admin CRUD of promotions (issue 32): rules checked member by member, events in the same transaction. */
@Injectable()
export class PromotionsService {
  private readonly changeListeners: Array<(tenantId: string) => void> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly promotions: PromotionsRepository,
    private readonly events: DomainEvents,
    private readonly extensions: Extensions,
    private readonly catalogue: CataloguePromotionPrices,
  ) {}

  /** Called after a promotion of a shop is created, changed or deleted (the evaluation's cache). */
  onChange(listener: (tenantId: string) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(tenantId: string): void {
    for (const l of this.changeListeners) l(tenantId);
  }

  /**
   * The engine's hooks for one cart from the `PromotionCondition` / `PromotionAction` extensions: each loads what it
   * needs now, so evaluation stays synchronous. The last registered implementation of a name wins.
   */
  async hooks(ctx: RequestContext, cart: PromotionCartView): Promise<EngineHooks> {
    const conditions = new Map<string, (params: Record<string, unknown>) => boolean>();
    for (const c of this.extensions.all(PromotionCondition)) conditions.set(c.name, await c.forCart(ctx, cart));
    const actions = new Map<string, (params: Record<string, unknown>, lines: readonly EngineLine[]) => number[]>();
    for (const a of this.extensions.all(PromotionAction)) actions.set(a.name, await a.forCart(ctx, cart));
    return { conditions, actions };
  }

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<PromotionDto>> {
    return (await this.promotions.list(ctx, page)).map(present);
  }

  async get(ctx: RequestContext, id: string): Promise<PromotionDto> {
    return present(await this.promotions.find(ctx, id));
  }

  /** `key`: the import key; `batch`: catalogue repricing left to the caller (imports only). */
  async create(ctx: RequestContext, dto: CreatePromotionDto, key: string | null = null, batch?: PromotionWrites): Promise<PromotionDto> {
    const rules = this.checkedRules(dto.conditions, dto.actions);
    const row = this.promotions.create(ctx, {
      key,
      name: dto.name.trim(),
      enabled: dto.enabled ?? true,
      startsAt: dto.starts_at ? new Date(dto.starts_at) : null,
      endsAt: dto.ends_at ? new Date(dto.ends_at) : null,
      priority: dto.priority ?? 0,
      combinesWith: combinesWith(dto.combines_with, null),
      usageLimit: dto.usage_limit ?? null,
      usageLimitPerCustomer: dto.usage_limit_per_customer ?? null,
      code: code(dto.code),
      ...rules,
    });
    return this.persist(ctx, row, 'promotion.created', null, batch);
  }

  async update(ctx: RequestContext, id: string, dto: UpdatePromotionDto, batch?: PromotionWrites): Promise<PromotionDto> {
    const p = await this.promotions.find(ctx, id);
    const before = stored(p);
    if (dto.name !== undefined) {
      if (dto.name === null) throw AppError.unprocessable('name must not be null');
      p.name = dto.name.trim();
    }
    if (dto.enabled != null) p.enabled = dto.enabled;
    if (dto.starts_at !== undefined) p.startsAt = dto.starts_at ? new Date(dto.starts_at) : null;
    if (dto.ends_at !== undefined) p.endsAt = dto.ends_at ? new Date(dto.ends_at) : null;
    if (dto.priority != null) p.priority = dto.priority;
    if (dto.combines_with != null) p.combinesWith = combinesWith(dto.combines_with, p.combinesWith);
    if (dto.usage_limit !== undefined) p.usageLimit = dto.usage_limit;
    if (dto.usage_limit_per_customer !== undefined) p.usageLimitPerCustomer = dto.usage_limit_per_customer;
    if (dto.code !== undefined) p.code = code(dto.code);
    if (dto.conditions !== undefined || dto.actions != null) {
      Object.assign(p, this.checkedRules(dto.conditions === undefined ? p.conditions : dto.conditions, dto.actions ?? p.actions));
    }
    return this.persist(ctx, p, 'promotion.updated', before, batch);
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const before = await this.promotions.find(tx, id);
      if (!(await this.promotions.delete(tx, id))) throw AppError.notFound('promotion');
      await this.events.emit(tx, 'promotion.deleted', { promotion: { id } });
      await this.catalogue.written(tx, stored(before), null);
    });
    this.changed(ctx.tenantId);
  }

  /** The rules checked member by member, custom ones against the registered extensions. */
  private checkedRules(conditions: unknown, actions: unknown): Pick<Promotion, 'conditions' | 'actions'> {
    const rules = checkedRules(conditions, actions);
    const known = (point: typeof PromotionCondition | typeof PromotionAction, name: string) =>
      this.extensions.all<{ name: string }>(point).some((e) => e.name === name);
    rules.conditions.forEach((c, i) => {
      if (c.type === 'custom' && !known(PromotionCondition, c.name)) throw AppError.unprocessable(`conditions[${i}].name: no extension provides "${c.name}"`);
    });
    rules.actions.forEach((a, i) => {
      if (a.type === 'custom' && !known(PromotionAction, a.name)) throw AppError.unprocessable(`actions[${i}].name: no extension provides "${a.name}"`);
    });
    return rules;
  }

  private async persist(
    ctx: RequestContext,
    p: Promotion,
    topic: 'promotion.created' | 'promotion.updated',
    before: StoredPromotion | null,
    batch?: PromotionWrites,
  ): Promise<PromotionDto> {
    if (p.startsAt && p.endsAt && p.endsAt <= p.startsAt) throw AppError.unprocessable('ends_at must be after starts_at');
    try {
      const saved = await inTransaction(ctx, this.dataSource, async (tx) => {
        if (p.code) {
          const other = await this.promotions.findByCode(tx, p.code);
          if (other && other.id !== p.id) throw codeTaken(p.code);
        }
        const saved = await this.promotions.save(tx, p);
        const dto = present(saved);
        await this.events.emit(tx, topic, { promotion: dto });
        await this.catalogue.written(tx, before, stored(saved), batch);
        return dto;
      });
      this.changed(ctx.tenantId);
      return saved;
    } catch (err) {
      if (isUniqueViolation(err) && p.code) throw codeTaken(p.code);
      throw err;
    }
  }
}

/** A promotion as catalogue pricing reads it. */
export function stored(p: Promotion): StoredPromotion {
  return {
    id: p.id,
    name: p.name,
    priority: p.priority,
    combinesWith: p.combinesWith,
    conditions: p.conditions,
    actions: p.actions,
    enabled: p.enabled,
    code: p.code,
    usageLimit: p.usageLimit,
    usageLimitPerCustomer: p.usageLimitPerCustomer,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
  };
}

function present(p: Promotion): PromotionDto {
  return mapPromotion(p, promotionClass(p) ?? 'product');
}

function code(v: string | null | undefined): string | null {
  const c = v?.trim();
  return c ? c : null;
}

function checkedRules(conditions: unknown, actions: unknown): Pick<Promotion, 'conditions' | 'actions'> {
  try {
    const rules = { conditions: parseConditions(conditions), actions: parseActions(actions) };
    if (!promotionClass(rules)) throw new RuleError('actions must all be of one kind: product (lines), order or shipping');
    return rules;
  } catch (err) {
    if (err instanceof RuleError) throw AppError.unprocessable(err.message);
    throw err;
  }
}

const COMBINES = ['product', 'order', 'shipping', 'discount_codes'] as const;

function combinesWith(v: unknown, current: CombinesWith | null): CombinesWith {
  const o = v as Record<string, unknown>;
  const out: CombinesWith = { ...(current ?? { product: false, order: false, shipping: false, discount_codes: false }) };
  for (const key of COMBINES) {
    const b = o?.[key];
    if (b === undefined || b === null) continue;
    if (typeof b !== 'boolean') throw AppError.unprocessable(`combines_with.${key} must be a boolean`);
    out[key] = b;
  }
  for (const key of Object.keys(o ?? {})) {
    if (!(COMBINES as readonly string[]).includes(key)) throw AppError.unprocessable(`combines_with.${key} is not a member (${COMBINES.join(', ')})`);
  }
  return out;
}
