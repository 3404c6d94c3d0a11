import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { DataSource, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import {
  CreateTaxCategoryDto,
  CreateTaxRateDto,
  mapTaxCategory,
  mapTaxRate,
  mapTaxSettings,
  TaxCategoryDto,
  TaxRateDto,
  TaxSettingsDto,
  UpdateTaxCategoryDto,
  UpdateTaxRateDto,
  UpdateTaxSettingsDto,
} from './dto/tax-rates.dto.js';
import type { TaxCategory, TaxRate } from './entities/tax.entities.js';
import {
  categoryById,
  categoryPage,
  deleteTaxRow,
  newCategory,
  newRate,
  rateById,
  ratePage,
  ratesOf,
  saveCategory,
  saveRate,
  taxSettingsOf,
  upsertTaxSettings,
  zoneById,
} from './tax.repository.js';
import type { ExciseClass, TaxSettings } from './tax-engine.js';
import { TAX_SETTINGS_CACHE_TOPIC } from './tax.service.js';

export const DEFAULT_TAX_SETTINGS: TaxSettings = { mode: 'origin', gross_price_policy: 'constant', excise_display: 'included' };

/** Admin CRUD of tax categories, rates (category x zone over a period) and the shop's tax settings. */
@Injectable()
export class TaxRatesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly events: DomainEvents,
    @Optional() private readonly bus?: CacheBus,
  ) {}

  // ------------------------------------------------------------------ categories

  async listCategories(ctx: RequestContext, page: PageRequest): Promise<Page<TaxCategoryDto>> {
    return (await categoryPage(managerOf(ctx, this.dataSource), ctx.tenantId, this.pager, page)).map(mapTaxCategory);
  }

  async getCategory(ctx: RequestContext, id: string): Promise<TaxCategoryDto> {
    return mapTaxCategory(await this.category(managerOf(ctx, this.dataSource), ctx.tenantId, id));
  }

  createCategory(ctx: RequestContext, dto: CreateTaxCategoryDto): Promise<TaxCategoryDto> {
    return this.writeCategory(ctx, 'tax_category.created', (m) =>
      newCategory(m, { tenantId: ctx.tenantId, key: dto.key.trim(), name: dto.name.trim(), exciseClass: (dto.excise_class ?? null) as ExciseClass | null }),
    );
  }

  updateCategory(ctx: RequestContext, id: string, dto: UpdateTaxCategoryDto): Promise<TaxCategoryDto> {
    return this.writeCategory(ctx, 'tax_category.updated', async (m) => {
      const c = await this.category(m, ctx.tenantId, id);
      if (dto.key === null || dto.name === null) throw AppError.unprocessable(`${dto.key === null ? 'key' : 'name'} must not be null`);
      if (dto.key !== undefined) c.key = dto.key.trim();
      if (dto.name !== undefined) c.name = dto.name.trim();
      if (dto.excise_class !== undefined) c.exciseClass = dto.excise_class as ExciseClass | null;
      c.updatedAt = new Date();
      return c;
    });
  }

  deleteCategory(ctx: RequestContext, id: string): Promise<void> {
    return this.deleteRow(ctx, 'tax_categories', id);
  }

  // ------------------------------------------------------------------ rates

  async listRates(ctx: RequestContext, page: PageRequest): Promise<Page<TaxRateDto>> {
    return (await ratePage(managerOf(ctx, this.dataSource), ctx.tenantId, this.pager, page)).map(mapTaxRate);
  }

  async getRate(ctx: RequestContext, id: string): Promise<TaxRateDto> {
    return mapTaxRate(await this.rate(managerOf(ctx, this.dataSource), ctx.tenantId, id));
  }

  createRate(ctx: RequestContext, dto: CreateTaxRateDto): Promise<TaxRateDto> {
    return this.writeRate(ctx, 'tax_rate.created', (m) =>
      newRate(m, {
        tenantId: ctx.tenantId,
        categoryId: dto.category_id,
        zoneId: dto.zone_id,
        rate: String(dto.rate),
        excisePerHl: String(dto.excise_per_hl ?? 0),
        validFrom: dto.valid_from ? dto.valid_from.slice(0, 10) : null,
        validTo: dto.valid_to ? dto.valid_to.slice(0, 10) : null,
      }),
    );
  }

  updateRate(ctx: RequestContext, id: string, dto: UpdateTaxRateDto): Promise<TaxRateDto> {
    return this.writeRate(ctx, 'tax_rate.updated', async (m) => {
      const r = await this.rate(m, ctx.tenantId, id);
      for (const k of ['category_id', 'zone_id', 'rate'] as const) if (dto[k] === null) throw AppError.unprocessable(`${k} must not be null`);
      if (dto.category_id !== undefined) r.categoryId = dto.category_id;
      if (dto.zone_id !== undefined) r.zoneId = dto.zone_id;
      if (dto.rate !== undefined) r.rate = String(dto.rate);
      if (dto.excise_per_hl !== undefined) r.excisePerHl = String(dto.excise_per_hl ?? 0);
      if (dto.valid_from !== undefined) r.validFrom = dto.valid_from ? dto.valid_from.slice(0, 10) : null;
      if (dto.valid_to !== undefined) r.validTo = dto.valid_to ? dto.valid_to.slice(0, 10) : null;
      r.updatedAt = new Date();
      return r;
    });
  }

  deleteRate(ctx: RequestContext, id: string): Promise<void> {
    return this.deleteRow(ctx, 'tax_rates', id);
  }

  // ------------------------------------------------------------------ settings

  async settings(ctx: RequestContext): Promise<TaxSettingsDto> {
    return mapTaxSettings((await taxSettingsOf(managerOf(ctx, this.dataSource), ctx.tenantId)) ?? DEFAULT_TAX_SETTINGS);
  }

  async updateSettings(ctx: RequestContext, dto: UpdateTaxSettingsDto): Promise<TaxSettingsDto> {
    const updated = await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const current = (await taxSettingsOf(m, tx.tenantId)) ?? DEFAULT_TAX_SETTINGS;
      const next = { ...current, ...definedOnly(dto) } as TaxSettings;
      await upsertTaxSettings(m, tx.tenantId, next);
      const out = mapTaxSettings(next);
      await this.events.emit(tx, 'tax_settings.updated', { tax_settings: out });
      return out;
    });
    // committed: this instance's cached settings go at once (the table's trigger tells every instance at commit too)
    if (!ctx.manager) await this.bus?.publish(TAX_SETTINGS_CACHE_TOPIC, ctx.tenantId);
    return updated;
  }

  // ------------------------------------------------------------------ helpers

  private async category(m: EntityManager, tenantId: string, id: string): Promise<TaxCategory> {
    const c = await categoryById(m, tenantId, id);
    if (!c) throw AppError.notFound('tax category');
    return c;
  }

  private async rate(m: EntityManager, tenantId: string, id: string): Promise<TaxRate> {
    const r = await rateById(m, tenantId, id);
    if (!r) throw AppError.notFound('tax rate');
    return r;
  }

  private async writeCategory(
    ctx: RequestContext,
    topic: 'tax_category.created' | 'tax_category.updated',
    build: (m: EntityManager) => TaxCategory | Promise<TaxCategory>,
  ): Promise<TaxCategoryDto> {
    try {
      return await inTransaction(ctx, this.dataSource, async (tx) => {
        const m = managerOf(tx, this.dataSource);
        const dto = mapTaxCategory(await saveCategory(m, await build(m)));
        await this.events.emit(tx, topic, { tax_category: dto });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable('key is already taken by another tax category');
      throw err;
    }
  }

  /** Checks the rate's category and zone are the shop's and its period overlaps no other of the same pair. */
  private async writeRate(
    ctx: RequestContext,
    topic: 'tax_rate.created' | 'tax_rate.updated',
    build: (m: EntityManager) => TaxRate | Promise<TaxRate>,
  ): Promise<TaxRateDto> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const r = await build(m);
      if (!(await categoryById(m, tx.tenantId, r.categoryId))) throw AppError.unprocessable('category_id names no tax category of this shop');
      if (!(await zoneById(m, tx.tenantId, r.zoneId))) throw AppError.unprocessable('zone_id names no tax zone of this shop');
      if (r.validFrom && r.validTo && r.validFrom > r.validTo) throw AppError.unprocessable('valid_to must not be before valid_from');
      const others = (await ratesOf(m, tx.tenantId, { categoryId: r.categoryId, zoneId: r.zoneId })).filter((o) => o.id !== r.id);
      const clash = others.find((o) => (o.valid_from ?? '0000') <= (r.validTo ?? '9999') && (r.validFrom ?? '0000') <= (o.valid_to ?? '9999'));
      if (clash) throw AppError.unprocessable(`valid_from..valid_to overlaps the rate ${clash.id} of the same category and zone`);
      const dto = mapTaxRate(await saveRate(m, r));
      await this.events.emit(tx, topic, { tax_rate: dto });
      return dto;
    });
  }

  private async deleteRow(ctx: RequestContext, table: 'tax_categories' | 'tax_rates', id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      if (!(await deleteTaxRow(managerOf(tx, this.dataSource), table, tx.tenantId, id)))
        throw AppError.notFound(table === 'tax_rates' ? 'tax rate' : 'tax category');
      if (table === 'tax_rates') await this.events.emit(tx, 'tax_rate.deleted', { tax_rate: { id } });
      else await this.events.emit(tx, 'tax_category.deleted', { tax_category: { id } });
    });
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
