import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import type { CustomerAddress } from '../entities/customer-address.entity.js';
import type { Customer, CustomerType } from '../entities/customer.entity.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/password.js';
import { OptionalText } from '../../common/http/dto-fields.js';

const PASSWORD_TOO_SHORT = `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
const PASSWORD_TOO_LONG = `password must be at most ${PASSWORD_MAX_LENGTH} characters`;

/** POST /customers (storefront). */
export class RegisterCustomerDto {
  /** Login email; unique within the shop, case-insensitive (also against customers the admin created). */
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an email address' })
  email: string;

  /** At least 8 characters. */
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_TOO_LONG })
  password: string;

  /** Goes on the billing address created with the account (the profile's default_address). */
  @OptionalText(200)
  first_name?: string | null;

  @OptionalText(200)
  last_name?: string | null;
}

/** POST /customer/auth/token. */
export class SignInDto {
  @IsString()
  @MaxLength(254)
  email: string;

  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_TOO_LONG })
  password: string;
}

/** POST /customers/recover. */
export class RecoverDto {
  @IsString()
  @MaxLength(254)
  email: string;
}

/** POST /customers/reset_password. */
export class ResetPasswordDto {
  /** The code from the reset mail. */
  @IsString()
  @MaxLength(200)
  token: string;

  /** The new password, at least 8 characters. */
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_TOO_LONG })
  password: string;
}

/** POST /customers/confirm_email. */
export class ConfirmEmailDto {
  /** The code from the confirmation mail. */
  @IsString()
  @MaxLength(200)
  token: string;
}

export class CustomerAccessTokenDto {
  /** `vnscat_` + 40 base62 characters; send as `Authorization: Bearer <access_token>`. */
  access_token: string;
  /** 30 days after sign-in. */
  expires_at: string;
}

/** SPEC "Saved address" (customer tier): every string nullable. */
export class SavedAddressDto {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  department: string | null;
  /** Without the house number. */
  street: string | null;
  /** Free text, may carry suffixes. */
  house_number: string | null;
  zip_code: string | null;
  /** City. */
  location: string | null;
  /** A country row of the shop (not an ISO code). */
  country_id: string | null;
  phone_number: string | null;
  mobile_number: string | null;
  fax_number: string | null;
  /** Contact email of the address, unrelated to the login. */
  email: string | null;
  website: string | null;
  /** Salutation row id. */
  title_id: string | null;
}

/** SPEC "Profile" (customer tier). */
export class ProfileDto {
  /** The shopper id. */
  id: string;
  email: string | null;
  is_active: boolean;
  is_email_confirmed: boolean;
  /** `Customer`, `Corporate` or `Reseller` (the admin tier spells them in lower case). */
  type: string | null;
  /**
   * The billing address; always an object (SPEC: not nullable): while none is set, its id is the shopper's id and
   * every other member is null (as the admin tier's default_address).
   */
  @ApiProperty({ type: () => SavedAddressDto })
  default_address: SavedAddressDto;
}

/**
 * Create and update body of a saved address. On update every member is optional: an absent member is left
 * unchanged, `null` clears it.
 */
export class AddressBodyDto {
  @OptionalText(200)
  first_name?: string | null;

  @OptionalText(200)
  last_name?: string | null;

  @OptionalText(200)
  company?: string | null;

  @OptionalText(200)
  department?: string | null;

  @OptionalText(200)
  street?: string | null;

  @OptionalText(50)
  house_number?: string | null;

  @OptionalText(50)
  zip_code?: string | null;

  @OptionalText(200)
  location?: string | null;

  /** One of the shop's countries (GET /countries ids), else 422. */
  @IsOptional()
  @IsUUID('all', { message: 'country_id must be a UUID' })
  country_id?: string | null;

  @OptionalText(50)
  phone_number?: string | null;

  @OptionalText(50)
  mobile_number?: string | null;

  @OptionalText(50)
  fax_number?: string | null;

  @OptionalText(254)
  email?: string | null;

  @OptionalText(500)
  website?: string | null;

  @IsOptional()
  @IsUUID('all', { message: 'title_id must be a UUID' })
  title_id?: string | null;
}

/** Body member -> entity property of an address. */
export const ADDRESS_FIELDS = {
  first_name: 'firstName',
  last_name: 'lastName',
  company: 'company',
  department: 'department',
  street: 'street',
  house_number: 'houseNumber',
  zip_code: 'zipCode',
  location: 'location',
  country_id: 'countryId',
  phone_number: 'phoneNumber',
  mobile_number: 'mobileNumber',
  fax_number: 'faxNumber',
  email: 'email',
  website: 'website',
  title_id: 'titleId',
} as const satisfies Record<keyof AddressBodyDto, keyof CustomerAddress>;

const TYPE_NAMES: Record<CustomerType, string> = { customer: 'Customer', corporate: 'Corporate', reseller: 'Reseller' };

export function mapSavedAddress(a: CustomerAddress): SavedAddressDto {
  return {
    id: a.id,
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    department: a.department,
    street: a.street,
    house_number: a.houseNumber,
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

export function mapProfile(c: Customer, defaultAddress: CustomerAddress | null): ProfileDto {
  return {
    id: c.id,
    email: c.email,
    is_active: c.isActive,
    is_email_confirmed: c.isEmailConfirmed,
    type: c.type ? (TYPE_NAMES[c.type] ?? c.type) : null,
    default_address: defaultAddress ? mapSavedAddress(defaultAddress) : emptySavedAddress(c.id),
  };
}

/** A shopper without a billing address: the address's id is the shopper's id, every other member null. */
function emptySavedAddress(customerId: string): SavedAddressDto {
  const out: Record<string, string | null> = { id: customerId };
  for (const member of Object.keys(ADDRESS_FIELDS)) out[member] = null;
  return out as unknown as SavedAddressDto;
}
