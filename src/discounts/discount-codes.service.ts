import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest } from '../common/paging/pager.service.js';
import { TenancyService } from '../tenancy/index.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { CreateDiscountCodeDto, DiscountCodeDto, mapDiscountCode, UpdateDiscountCodeDto } from './dto/discount-code.dto.js';
import { DiscountCode, DiscountType } from './entities/discount-code.entity.js';

const codeTaken = (code: string) => AppError.unprocessable(`discount code "${code}" already exists`);

/** Admin CRUD of discount codes; the cart redeems them (is_used, using_date) through `find`. */
@Injectable()
export class DiscountCodesService {
  constructor(
    private readonly repo: DiscountCodesRepository,
    private readonly tenancy: TenancyService,
  ) {}

  /** Every code, newest first, expired and inactive included. */
  async list(ctx: RequestContext, page: PageRequest): Promise<Page<DiscountCodeDto>> {
    const rows = await this.repo.page(ctx, page);
    return rows.map(mapDiscountCode);
  }

  async get(ctx: RequestContext, id: string): Promise<DiscountCodeDto> {
    return mapDiscountCode(await this.find(ctx, id));
  }

  find(ctx: RequestContext, id: string): Promise<DiscountCode> {
    return this.repo.getOrThrow(ctx, id);
  }

  /** The tenant's code with exactly this text, or null. */
  findByCode(ctx: RequestContext, code: string): Promise<DiscountCode | null> {
    return this.repo.byCode(ctx, code);
  }

  async create(ctx: RequestContext, dto: CreateDiscountCodeDto): Promise<DiscountCodeDto> {
    const code = dto.code.trim();
    const type: DiscountType = (dto.type as DiscountType | null | undefined) ?? 'value';
    checkValue(type, dto.value);
    const currencyId = type === 'percent' ? null : ((await this.currencyOf(ctx, dto)) ?? null);
    if (currencyId) await this.assertCurrency(ctx, currencyId);
    if (await this.findByCode(ctx, code)) throw codeTaken(code);
    const row = this.repo.build(ctx, {
      tenantId: ctx.tenantId,
      code,
      type,
      value: String(dto.value),
      isActive: dto.is_active ?? true,
      isUsed: false,
      isInfinite: dto.is_infinite ?? false,
      usingDate: null,
      currencyId,
      expiryDate: dto.expiry_date ? new Date(dto.expiry_date) : null,
      minValue: String(dto.min_value ?? 0),
      isCheckAllProductsForCategory: dto.is_check_all_products_for_category ?? false,
    });
    try {
      return mapDiscountCode(await this.repo.save(ctx, row));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken(code);
      throw err;
    }
  }

  async update(ctx: RequestContext, id: string, dto: UpdateDiscountCodeDto): Promise<DiscountCodeDto> {
    const d = await this.find(ctx, id);
    if (dto.value != null) {
      checkValue(d.type, dto.value);
      d.value = String(dto.value);
    }
    if (dto.is_active != null) d.isActive = dto.is_active;
    if (dto.is_infinite != null) d.isInfinite = dto.is_infinite;
    const currencyId = d.type === 'value' ? await this.currencyOf(ctx, dto) : undefined;
    if (currencyId !== undefined) {
      if (currencyId !== null) await this.assertCurrency(ctx, currencyId);
      d.currencyId = currencyId;
    }
    if (dto.expiry_date !== undefined) d.expiryDate = dto.expiry_date === null ? null : new Date(dto.expiry_date);
    if (dto.min_value != null) d.minValue = String(dto.min_value);
    if (dto.is_check_all_products_for_category != null) d.isCheckAllProductsForCategory = dto.is_check_all_products_for_category;
    return mapDiscountCode(await this.repo.save(ctx, d));
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    if (!(await this.repo.delete(ctx, id))) throw AppError.notFound('discount code');
  }

  /** `currency_id`, or the id of the shop currency `currency` names (never silently ignored: 422 when they differ). */
  private async currencyOf(ctx: RequestContext, dto: { currency_id?: string | null; currency?: string | null }): Promise<string | null | undefined> {
    if (dto.currency == null) return dto.currency_id;
    const config = await this.tenancy.config(ctx.tenantId);
    const named = config.currencies.find((c) => c.code.toUpperCase() === dto.currency!.toUpperCase());
    if (!named) throw AppError.unprocessable(`currency ${dto.currency} is not a currency of this shop`);
    if (dto.currency_id != null && dto.currency_id.toLowerCase() !== named.id) {
      throw AppError.unprocessable('currency and currency_id name different currencies', 'currency_mismatch');
    }
    return named.id;
  }

  private async assertCurrency(ctx: RequestContext, currencyId: string): Promise<void> {
    const config = await this.tenancy.config(ctx.tenantId);
    if (!config.currencies.some((c) => c.id === currencyId)) throw AppError.unprocessable('currency_id is not a currency of this shop');
  }
}

function checkValue(type: DiscountType, value: number): void {
  if (!(value > 0)) throw AppError.unprocessable('value must be greater than 0');
  if (type === 'percent' && value > 100) throw AppError.unprocessable('value of a percent code must be at most 100');
}
