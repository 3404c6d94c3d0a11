import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { CreateTaxZoneDto, mapTaxZone, TaxZoneDto, UpdateTaxZoneDto } from './dto/tax-zone.dto.js';
import type { TaxZone } from './entities/tax-zone.entity.js';
import { deleteZone, insertZone, saveZone, zoneById, zoneCount, zonePage, zonesOf, type ZoneRow } from './tax.repository.js';
import { checkedZoneAreas, MAX_ZONES_PER_SHOP } from './zone-rules.js';

/** Admin CRUD of zones (taxes and shipping share them); each change records its domain event in its transaction. */
@Injectable()
export class TaxZonesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pager: Pager,
    private readonly events: DomainEvents,
  ) {}

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<TaxZoneDto>> {
    const rows = await zonePage(managerOf(ctx, this.dataSource), ctx.tenantId, this.pager, page);
    return rows.map(mapTaxZone);
  }

  async get(ctx: RequestContext, id: string): Promise<TaxZoneDto> {
    return mapTaxZone(await this.find(ctx, id));
  }

  /** Every zone of the shop (for `matchZone`), oldest first. */
  zones(ctx: RequestContext): Promise<ZoneRow[]> {
    return zonesOf(managerOf(ctx, this.dataSource), ctx.tenantId);
  }

  async create(ctx: RequestContext, dto: CreateTaxZoneDto): Promise<TaxZoneDto> {
    const areas = checkedZoneAreas(dto);
    return this.write(ctx, 'tax_zone.created', async (m) => {
      if ((await zoneCount(m, ctx.tenantId)) >= MAX_ZONES_PER_SHOP) throw AppError.unprocessable(`a shop has at most ${MAX_ZONES_PER_SHOP} zones`);
      return insertZone(m, ctx.tenantId, {
        key: blankToNull(dto.key),
        name: dto.name.trim(),
        ...areas,
        exciseCurrency: dto.excise_currency?.toUpperCase() ?? null,
        exciseInVatBase: dto.excise_in_vat_base ?? false,
      });
    });
  }

  async update(ctx: RequestContext, id: string, dto: UpdateTaxZoneDto): Promise<TaxZoneDto> {
    return this.write(ctx, 'tax_zone.updated', async (m, tx) => {
      const z = await this.find(tx, id);
      if (dto.name === null) throw AppError.unprocessable('name must not be null');
      if (dto.name !== undefined) z.name = dto.name.trim();
      if (dto.key !== undefined) z.key = blankToNull(dto.key);
      if (dto.excise_currency !== undefined) z.exciseCurrency = dto.excise_currency?.toUpperCase() ?? null;
      if (dto.excise_in_vat_base === null) throw AppError.unprocessable('excise_in_vat_base must be true or false');
      if (dto.excise_in_vat_base !== undefined) z.exciseInVatBase = dto.excise_in_vat_base;
      const areas = checkedZoneAreas({
        countries: dto.countries === undefined ? z.countries : dto.countries,
        regions: dto.regions === undefined ? z.regions : dto.regions,
        postcodes: dto.postcodes === undefined ? z.postcodes : dto.postcodes,
      });
      Object.assign(z, areas);
      z.updatedAt = new Date();
      return saveZone(m, z);
    });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      if (!(await deleteZone(managerOf(tx, this.dataSource), tx.tenantId, id))) throw AppError.notFound('tax zone');
      await this.events.emit(tx, 'tax_zone.deleted', { tax_zone: { id } });
    });
  }

  private async find(ctx: RequestContext, id: string): Promise<TaxZone> {
    const z = await zoneById(managerOf(ctx, this.dataSource), ctx.tenantId, id);
    if (!z) throw AppError.notFound('tax zone');
    return z;
  }

  /** Runs `work` in a transaction, then records the event; a duplicate key is 422. */
  private async write(
    ctx: RequestContext,
    topic: 'tax_zone.created' | 'tax_zone.updated',
    work: (m: ReturnType<typeof managerOf>, tx: RequestContext) => Promise<TaxZone>,
  ): Promise<TaxZoneDto> {
    try {
      return await inTransaction(ctx, this.dataSource, async (tx) => {
        const dto = mapTaxZone(await work(managerOf(tx, this.dataSource), tx));
        await this.events.emit(tx, topic, { tax_zone: dto });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable('key is already taken by another tax zone');
      throw err;
    }
  }
}

function blankToNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}
