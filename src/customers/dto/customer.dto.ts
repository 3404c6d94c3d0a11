import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import type { CustomerAddress } from '../entities/customer-address.entity.js';
import type { Customer } from '../entities/customer.entity.js';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';

export const CUSTOMER_TYPES = ['customer', 'corporate', 'reseller'] as const;

export class CreateCustomerDto {
  /** Login email; required, unique within the shop (case-insensitive). */
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;

  /** Account enabled; default true (on update, null is no change). */
  @OptionalBoolean()
  is_active?: boolean | null;

  /** Default false (on update, null is no change). */
  @OptionalBoolean()
  is_email_confirmed?: boolean | null;

  /** `customer` (default), `corporate` or `reseller`; on update, null is no change. */
  @IsOptional()
  @IsIn(CUSTOMER_TYPES)
  type?: string | null;

  /** Preferred currency, one of the shop's; null follows the shop default. */
  @IsOptional()
  @IsUUID('all', { message: 'currency_id must be a UUID' })
  currency_id?: string | null;
}

/**
 * Every member optional (`PartialType`): a null flag or type leaves it unchanged, a null currency_id clears it
 * (follow the shop default). Only `email` differs from create: read-only, so any string is accepted here and the
 * service answers 422 when it is not the current email (any case); null is no change.
 */
export class UpdateCustomerDto extends PartialType(OmitType(CreateCustomerDto, ['email'] as const)) {
  /** Read-only: the current email (any case) is accepted, a different one is 422. */
  @OptionalText(254)
  email?: string | null;
}

/** SPEC "Admin default address" (no house_number). */
export class AdminDefaultAddressDto {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  department: string | null;
  street: string | null;
  zip_code: string | null;
  location: string | null;
  country_id: string | null;
  phone_number: string | null;
  mobile_number: string | null;
  fax_number: string | null;
  email: string | null;
  website: string | null;
  title_id: string | null;
}

export class CustomerDto {
  id: string;
  email: string | null;
  is_active: boolean;
  is_email_confirmed: boolean;
  /** `customer`, `corporate` or `reseller`. */
  type: string | null;
  currency_id: string | null;
  /** The primary billing address; always an object (SPEC: not nullable): every member but id is null while none is stored. */
  @ApiProperty({ type: () => AdminDefaultAddressDto })
  default_address: AdminDefaultAddressDto;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapAdminDefaultAddress(a: CustomerAddress): AdminDefaultAddressDto {
  return {
    id: a.id,
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    department: a.department,
    street: a.street,
    zip_code: a.zipCode,
    location: a.location,
    country_id: a.countryId,
    phone_number: a.phoneNumber,
    mobile_number: a.mobileNumber,
    fax_number: a.faxNumber,
    email: a.email,
    website: a.website,
    title_id: a.titleId,
  };
}

/** A customer without a stored billing address: the address's id is the customer's id, every other member null. */
function emptyAdminDefaultAddress(customerId: string): AdminDefaultAddressDto {
  return {
    id: customerId,
    first_name: null,
    last_name: null,
    company: null,
    department: null,
    street: null,
    zip_code: null,
    location: null,
    country_id: null,
    phone_number: null,
    mobile_number: null,
    fax_number: null,
    email: null,
    website: null,
    title_id: null,
  };
}

export function mapCustomer(c: Customer, defaultAddress: CustomerAddress | null): CustomerDto {
  return {
    id: c.id,
    email: c.email,
    is_active: c.isActive,
    is_email_confirmed: c.isEmailConfirmed,
    type: c.type,
    currency_id: c.currencyId,
    default_address: defaultAddress ? mapAdminDefaultAddress(defaultAddress) : emptyAdminDefaultAddress(c.id),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
  };
}
