import { randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { TenancyService } from '../tenancy/index.js';
import { parseDestinationRule } from './destination-rules.js';
import { DestinationRuleDto, mapDestinationRule, mapShippingMethod, ShippingMethodDto } from './dto/shipping.dto.js';
import { parseShippingMethodInput, shippingMethodValues } from './method-input.js';
import { ShippingInputError } from './rate-table.js';
import { CHECKOUT_OPTIONS_CACHE_TOPIC, DESTINATION_RULES_CACHE_TOPIC } from './shipping-quotes.service.js';
import { ShippingZones } from './shipping-zones.js';
import * as repo from './shipping.repository.js';

const keyTaken = (key: string) => new ShippingInputError('key', `"${key}" is already the key of another shipping method`);

/**
 * Admin CRUD of shipping methods and destination rules (README "Shipping"). Each write runs in one transaction with
 * its domain event; zone keys must name zones of the shop.
 */
@Injectable()
export class ShippingAdminService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly tenancy: TenancyService,
    private readonly events: DomainEvents,
    private readonly zones: ShippingZones,
    @Optional() private readonly bus?: CacheBus,
  ) {}

  /**
   * After a committed rule write: this instance's cached rules go at once (the table's trigger tells every instance
   * at commit too; this spares the writer's next request the wait for that message).
   */
  private async rulesChanged<T>(ctx: RequestContext, out: T): Promise<T> {
    if (!ctx.manager) await this.bus?.publish(DESTINATION_RULES_CACHE_TOPIC, ctx.tenantId);
    return out;
  }

  /** After a committed method write: the checkout's cached shipping methods of this instance go at once (as `rulesChanged`). */
  private async methodsChanged<T>(ctx: RequestContext, out: T): Promise<T> {
    if (!ctx.manager) await this.bus?.publish(CHECKOUT_OPTIONS_CACHE_TOPIC, ctx.tenantId);
    return out;
  }

  // ------------------------------------------------------------------ shipping methods

  async listMethods(ctx: RequestContext, page: PageRequest): Promise<Page<ShippingMethodDto>> {
    const rows = await repo.shippingMethodPage(managerOf(ctx, this.dataSource), ctx.tenantId, afterOf(page), page.limit);
    return this.pager.page(rows, page, (r) => [r.created_at.toISOString(), r.id]).map(mapShippingMethod);
  }

  async getMethod(ctx: RequestContext, id: string): Promise<ShippingMethodDto> {
    const row = await repo.shippingMethodById(managerOf(ctx, this.dataSource), ctx.tenantId, id);
    if (!row) throw AppError.notFound('shipping method');
    return mapShippingMethod(row);
  }

  /** 201 with the method; 422 naming the member (a taken key, a rate table with a gap or an overlap, an unknown zone). */
  async createMethod(ctx: RequestContext, body: unknown): Promise<ShippingMethodDto> {
    const { settings } = await this.tenancy.config(ctx.tenantId);
    const input = parseShippingMethodInput(body, '', settings.default_language);
    if (!input.name || Object.keys(input.name).length === 0) throw new ShippingInputError('name', 'is required');
    const created = await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await this.zones.assertKnown(
        tx,
        (input.zones ?? []).map((z) => z.zone),
        (i) => `zones[${i}].zone`,
      );
      const key = input.key ?? `shipping-${randomUUID().slice(0, 8)}`;
      const row = await repo.insertShippingMethod(m, tx.tenantId, shippingMethodValues(null, input, key));
      if (!row) throw keyTaken(key);
      const dto = mapShippingMethod(row);
      await this.events.emit(tx, 'shipping_method.created', { shipping_method: dto });
      return dto;
    });
    return this.methodsChanged(ctx, created);
  }

  /** Applies the members given (null clears a nullable one; `zones` and `rate_table` are replaced whole). */
  async updateMethod(ctx: RequestContext, id: string, body: unknown): Promise<ShippingMethodDto> {
    const { settings } = await this.tenancy.config(ctx.tenantId);
    const input = parseShippingMethodInput(body, '', settings.default_language);
    const updated = await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const current = await repo.shippingMethodById(m, tx.tenantId, id, true);
      if (!current) throw AppError.notFound('shipping method');
      if (input.zones)
        await this.zones.assertKnown(
          tx,
          input.zones.map((z) => z.zone),
          (i) => `zones[${i}].zone`,
        );
      const key = input.key ?? current.key;
      if (key !== current.key && (await repo.shippingMethodKeyTaken(m, tx.tenantId, key, id))) throw keyTaken(key);
      const dto = mapShippingMethod(await repo.updateShippingMethod(m, tx.tenantId, id, shippingMethodValues(current, input, key)));
      await this.events.emit(tx, 'shipping_method.updated', { shipping_method: dto });
      return dto;
    });
    return this.methodsChanged(ctx, updated);
  }

  /** Checkouts that chose it lose the choice; placed orders keep the method's name and price. */
  async deleteMethod(ctx: RequestContext, id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const current = await repo.shippingMethodById(m, tx.tenantId, id, true);
      if (!current || !(await repo.deleteShippingMethod(m, tx.tenantId, id))) throw AppError.notFound('shipping method');
      await this.events.emit(tx, 'shipping_method.deleted', { shipping_method: { id, key: current.key } });
    });
    await this.methodsChanged(ctx, undefined);
  }

  // ------------------------------------------------------------------ destination rules

  async listRules(ctx: RequestContext, page: PageRequest): Promise<Page<DestinationRuleDto>> {
    const rows = await repo.destinationRulePage(managerOf(ctx, this.dataSource), ctx.tenantId, afterOf(page), page.limit);
    return this.pager.page(rows, page, (r) => [r.created_at.toISOString(), r.id]).map(mapDestinationRule);
  }

  async getRule(ctx: RequestContext, id: string): Promise<DestinationRuleDto> {
    const row = await repo.destinationRuleById(managerOf(ctx, this.dataSource), ctx.tenantId, id);
    if (!row) throw AppError.notFound('destination rule');
    return mapDestinationRule(row);
  }

  /** One rule per zone: a second for the same zone is 422. */
  async createRule(ctx: RequestContext, body: unknown): Promise<DestinationRuleDto> {
    const input = parseDestinationRule(body, '');
    const created = await inTransaction(ctx, this.dataSource, async (tx) => {
      await this.zones.assertKnown(tx, [input.zone], () => 'zone');
      const row = await repo.insertDestinationRule(managerOf(tx, this.dataSource), tx.tenantId, ruleValues(input));
      if (!row) throw new ShippingInputError('zone', `"${input.zone}" already has destination rules`);
      const dto = mapDestinationRule(row);
      await this.events.emit(tx, 'destination_rule.created', { destination_rule: dto });
      return dto;
    });
    return this.rulesChanged(ctx, created);
  }

  async updateRule(ctx: RequestContext, id: string, body: unknown): Promise<DestinationRuleDto> {
    // bad input is 422 before the rule is looked up (the members are applied to the stored rule below)
    parseDestinationRule(body, '', { zone: 'any', alcohol_shipping: true, max_litres_per_order: null, max_litres_per_year: null, min_age: null });
    const updated = await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const current = await repo.destinationRuleById(m, tx.tenantId, id, true);
      if (!current) throw AppError.notFound('destination rule');
      const base = { ...current, max_litres_per_order: num(current.max_litres_per_order), max_litres_per_year: num(current.max_litres_per_year) };
      const input = parseDestinationRule(body, '', base);
      if (input.zone !== current.zone) await this.zones.assertKnown(tx, [input.zone], () => 'zone');
      const row = await repo.updateDestinationRule(m, tx.tenantId, id, ruleValues(input));
      if (!row) throw new ShippingInputError('zone', `"${input.zone}" already has destination rules`);
      const dto = mapDestinationRule(row);
      await this.events.emit(tx, 'destination_rule.updated', { destination_rule: dto });
      return dto;
    });
    return this.rulesChanged(ctx, updated);
  }

  async deleteRule(ctx: RequestContext, id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const current = await repo.destinationRuleById(m, tx.tenantId, id, true);
      if (!current || !(await repo.deleteDestinationRule(m, tx.tenantId, id))) throw AppError.notFound('destination rule');
      await this.events.emit(tx, 'destination_rule.deleted', { destination_rule: { id, zone: current.zone } });
    });
    await this.rulesChanged(ctx, undefined);
  }
}

const num = (x: string | null) => (x === null ? null : Number(x));

function afterOf(page: PageRequest): [string, string] | null {
  return page.after ? [String(page.after[0]), String(page.after[1])] : null;
}

function ruleValues(r: ReturnType<typeof parseDestinationRule>): repo.DestinationRuleValues {
  const litres = (x: number | null) => (x === null ? null : Number(x.toFixed(3)).toString());
  return [r.zone, r.alcohol_shipping, litres(r.max_litres_per_order), litres(r.max_litres_per_year), r.min_age];
}
