import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { isUuid } from '../tenancy/index.js';
import { ADDRESS_FIELDS, AddressBodyDto, mapProfile, mapSavedAddress, ProfileDto, SavedAddressDto } from './dto/account.dto.js';
import { CustomerAddress } from './entities/customer-address.entity.js';
import { CustomersRepository, MAX_SAVED_ADDRESSES } from './customers.repository.js';

/**
 * The customer tier (SPEC "Customer tier"): the signed-in shopper's own profile and saved addresses. Every query is
 * filtered by tenant and by the shopper of the token, so another shopper's address is a 404 like an unknown one.
 * A disabled account (is_active false) reads its profile and nothing else: every other route is 403 `account_disabled`.
 */
@Injectable()
export class CustomerAccountService {
  constructor(private readonly repo: CustomersRepository) {}

  async profile(ctx: RequestContext): Promise<ProfileDto> {
    return this.profileOf(ctx, shopperId(ctx));
  }

  async profileOf(ctx: RequestContext, customerId: string): Promise<ProfileDto> {
    const customer = await this.repo.getOrThrow(ctx, customerId);
    const addresses = await this.repo.addressesByIds(ctx, customer.defaultAddressId ? [customer.defaultAddressId] : []);
    return mapProfile(customer, (customer.defaultAddressId && addresses.get(customer.defaultAddressId)) || null);
  }

  /** Unpaged, oldest first (SPEC promises no order). */
  async listAddresses(ctx: RequestContext): Promise<SavedAddressDto[]> {
    const customerId = await this.activeShopper(ctx);
    return (await this.repo.addressesOf(ctx, customerId)).map(mapSavedAddress);
  }

  /** A new saved address; the shopper's first address (when none is the billing address yet) becomes default_address. */
  async createAddress(ctx: RequestContext, dto: AddressBodyDto): Promise<SavedAddressDto> {
    const customerId = await this.activeShopper(ctx);
    if (!Object.keys(ADDRESS_FIELDS).some((k) => dto[k as keyof AddressBodyDto] != null)) throw AppError.unprocessable('an address needs at least one member');
    if (dto.country_id != null) await this.assertCountry(ctx, dto.country_id);
    return this.repo.transaction(ctx, async (tx) => {
      // The customer row lock serialises a shopper's concurrent creates (the limit and the default stay exact).
      const me = await this.repo.lockForNewAddress(tx, customerId);
      if (!me) throw AppError.notFound('customer');
      if (me.addresses >= MAX_SAVED_ADDRESSES) throw AppError.unprocessable(`a shopper keeps at most ${MAX_SAVED_ADDRESSES} saved addresses`);
      const address = this.repo.buildAddress(tx, { tenantId: tx.tenantId, customerId });
      for (const [member, prop] of Object.entries(ADDRESS_FIELDS))
        (address as unknown as Record<string, unknown>)[prop] = clean(dto[member as keyof AddressBodyDto]) ?? null;
      const saved = await this.repo.saveAddress(tx, address);
      if (!me.defaultAddressId) await this.repo.setDefaultAddress(tx, customerId, saved.id);
      return mapSavedAddress(saved);
    });
  }

  /** Applies the members present in the body; `null` clears one. 404 for an unknown or another shopper's id. */
  async updateAddress(ctx: RequestContext, id: string, dto: AddressBodyDto): Promise<SavedAddressDto> {
    const customerId = await this.activeShopper(ctx);
    const address = await this.ownAddress(ctx, customerId, id);
    if (dto.country_id != null) await this.assertCountry(ctx, dto.country_id);
    for (const [member, prop] of Object.entries(ADDRESS_FIELDS)) {
      const value = dto[member as keyof AddressBodyDto];
      if (value !== undefined) (address as unknown as Record<string, unknown>)[prop] = clean(value);
    }
    return mapSavedAddress(await this.repo.saveAddress(ctx, address));
  }

  /** Deletes a saved address; when it was the billing address, default_address becomes null. */
  async deleteAddress(ctx: RequestContext, id: string): Promise<void> {
    const customerId = await this.activeShopper(ctx);
    if (!isUuid(id)) throw AppError.notFound('address');
    if (!(await this.repo.deleteAddress(ctx, customerId, id))) throw AppError.notFound('address');
  }

  /** The shopper of the token, refused with 403 `account_disabled` when the account is disabled. */
  async activeShopper(ctx: RequestContext): Promise<string> {
    const id = shopperId(ctx);
    const active = await this.repo.isActive(ctx, id);
    if (active === null) throw AppError.unauthorized('the access token is unknown, expired or revoked');
    if (!active) throw AppError.forbidden('the account is disabled: only its profile can be read', 'account_disabled');
    return id;
  }

  private async ownAddress(ctx: RequestContext, customerId: string, id: string): Promise<CustomerAddress> {
    const address = isUuid(id) ? await this.repo.ownAddress(ctx, customerId, id) : null;
    if (!address) throw AppError.notFound('address');
    return address;
  }

  private async assertCountry(ctx: RequestContext, countryId: string): Promise<void> {
    if (!(await this.repo.isCountryOfShop(ctx, countryId))) throw AppError.unprocessable('country_id is not a country of this shop');
  }
}

/** The customer id of the request's shopper token (the guard admits only those on the customer tier). */
export function shopperId(ctx: RequestContext): string {
  if (ctx.actor.type !== 'customer') throw AppError.unauthorized('a customer access token is required');
  return ctx.actor.customerId;
}

/** Trimmed text; blank becomes null. */
function clean(value: string | null | undefined): string | null {
  if (value == null) return null;
  const s = value.trim();
  return s === '' ? null : s;
}
