import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsOptional, MaxLength } from 'class-validator';
import { CheckoutLineDto } from './checkout.dto.js';
import { OptionalText } from '../../common/http/dto-fields.js';

/** SPEC "Admin checkout" address. */
export class AdminCheckoutAddressDto {
  id: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  department: string | null;
  /** Street and house number. */
  street: string | null;
  po_box: string | null;
  zip_code: string | null;
  location: string | null;
  email: string | null;
  phone_number: string | null;
  mobile_number: string | null;
  country_code: string | null;
  country_name: string | null;
}

export class AdminCheckoutTotalsDto {
  subtotal: number;
  tax_amount: number;
  shipping_amount: number;
  discount: number;
  total: number;
  currency_code: string;
  price_includes_tax: boolean;
}

/** SPEC "Admin checkout" (full). */
export class AdminCheckoutDto {
  token: string;
  email: string | null;
  currency_code: string | null;
  /** `Checkout` until completed, then `Completed`. */
  status: string | null;
  is_completed: boolean;
  note: string | null;
  customer_name: string | null;
  @ApiProperty({ type: () => [CheckoutLineDto] })
  line_items: CheckoutLineDto[];
  @ApiProperty({ type: () => AdminCheckoutTotalsDto })
  totals: AdminCheckoutTotalsDto;
  @ApiProperty({ type: () => AdminCheckoutAddressDto })
  shipping_address: AdminCheckoutAddressDto;
  @ApiProperty({ type: () => AdminCheckoutAddressDto })
  billing_address: AdminCheckoutAddressDto;
  created_at: string;
  updated_at: string | null;
}

/** SPEC "Admin checkout" summary row (list only). */
export class AdminCheckoutSummaryDto {
  token: string;
  email: string | null;
  currency_code: string | null;
  status: string | null;
  total: number;
  line_items_count: number;
  created_at: string;
  updated_at: string | null;
}

/** PUT /admin/checkouts/{token}: only note and email are admin-editable. */
export class UpdateAdminCheckoutDto {
  @OptionalText(5000)
  note?: string | null;
  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string | null;
}
