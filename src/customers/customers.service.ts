import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest } from '../common/paging/pager.service.js';
import { DomainEvents } from '../events/index.js';
import { TenancyService } from '../tenancy/index.js';
import { CreateCustomerDto, CustomerDto, mapCustomer, UpdateCustomerDto } from './dto/customer.dto.js';
import { CustomerAddress } from './entities/customer-address.entity.js';
import { Customer, CustomerType } from './entities/customer.entity.js';
import { CustomerAuthService } from './auth/customer-auth.service.js';
import { CustomersRepository } from './customers.repository.js';

const emailTaken = () => AppError.unprocessable('email is already used by another customer');

/** Admin CRUD of customers; the customer tier builds its profile, sign-in and addresses on the same tables. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly repo: CustomersRepository,
    private readonly tenancy: TenancyService,
    private readonly events: DomainEvents,
    private readonly auth: CustomerAuthService,
  ) {}

  /** Every customer of the shop, oldest first. */
  async list(ctx: RequestContext, page: PageRequest): Promise<Page<CustomerDto>> {
    const rows = await this.repo.page(ctx, page);
    const addresses = await this.defaultAddresses(ctx, rows.items);
    return rows.map((c) => mapCustomer(c, (c.defaultAddressId && addresses.get(c.defaultAddressId)) || null));
  }

  async get(ctx: RequestContext, id: string): Promise<CustomerDto> {
    return this.present(ctx, await this.find(ctx, id));
  }

  /** The tenant's customer row or 404. */
  find(ctx: RequestContext, id: string): Promise<Customer> {
    return this.repo.getOrThrow(ctx, id);
  }

  async create(ctx: RequestContext, dto: CreateCustomerDto): Promise<CustomerDto> {
    const email = dto.email.trim();
    if (dto.currency_id != null) await this.assertCurrency(ctx, dto.currency_id);
    if (await this.repo.emailTaken(ctx, email)) throw emailTaken();
    const customer = this.repo.build(ctx, {
      tenantId: ctx.tenantId,
      email,
      isActive: dto.is_active ?? true,
      isEmailConfirmed: dto.is_email_confirmed ?? false,
      type: (dto.type as CustomerType | null | undefined) ?? 'customer',
      currencyId: dto.currency_id ?? null,
      defaultAddressId: null,
    });
    return this.save(ctx, customer, 'customer.created');
  }

  async update(ctx: RequestContext, id: string, dto: UpdateCustomerDto): Promise<CustomerDto> {
    const c = await this.find(ctx, id);
    if (dto.email !== undefined && dto.email !== null && dto.email.trim().toLowerCase() !== c.email.toLowerCase()) {
      throw AppError.unprocessable('email is read-only: it cannot be changed');
    }
    if (dto.is_active != null) c.isActive = dto.is_active;
    if (dto.is_email_confirmed != null) c.isEmailConfirmed = dto.is_email_confirmed;
    if (dto.type != null) c.type = dto.type as CustomerType;
    if (dto.currency_id !== undefined) {
      if (dto.currency_id !== null) await this.assertCurrency(ctx, dto.currency_id);
      c.currencyId = dto.currency_id;
    }
    const saved = await this.save(ctx, c, 'customer.updated');
    // a disabled account: every instance hears of it at commit (trigger), this one at once
    if (dto.is_active != null) this.auth.forget(ctx.tenantId);
    return saved;
  }

  /** Deletes the customer and its addresses. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    if (!(await this.repo.delete(ctx, id))) throw AppError.notFound('customer');
    this.auth.forget(ctx.tenantId);
  }

  private async present(ctx: RequestContext, c: Customer): Promise<CustomerDto> {
    const addresses = await this.defaultAddresses(ctx, [c]);
    return mapCustomer(c, (c.defaultAddressId && addresses.get(c.defaultAddressId)) || null);
  }

  private defaultAddresses(ctx: RequestContext, customers: Customer[]): Promise<Map<string, CustomerAddress>> {
    return this.repo.addressesByIds(
      ctx,
      customers.map((c) => c.defaultAddressId).filter((id): id is string => !!id),
    );
  }

  private async assertCurrency(ctx: RequestContext, currencyId: string): Promise<void> {
    const config = await this.tenancy.config(ctx.tenantId);
    if (!config.currencies.some((c) => c.id === currencyId)) throw AppError.unprocessable('currency_id is not a currency of this shop');
  }

  /** Saves, presents and records the domain event in one transaction. */
  private async save(ctx: RequestContext, c: Customer, topic: 'customer.created' | 'customer.updated'): Promise<CustomerDto> {
    try {
      return await this.repo.transaction(ctx, async (tx) => {
        const dto = await this.present(tx, await this.repo.save(tx, c));
        await this.events.emit(tx, topic, { customer: dto });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
  }
}
