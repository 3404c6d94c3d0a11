import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsObject, IsOptional, IsString, IsUUID, Length, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';
import { LinePromotionDto, PromotionDiscountDto } from '../../promotions/index.js';

const TEXT = 200;

/** SPEC "Checkout address" (request and response). */
export class CheckoutAddressDto {
  /** Always null on a checkout address. */
  @IsOptional()
  @IsUUID()
  id?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) first_name?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) last_name?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) company?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) department?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) vat_number?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) street?: string | null;
  @IsOptional() @IsString() @MaxLength(50) house_number?: string | null;
  @IsOptional() @IsString() @MaxLength(50) po_box?: string | null;
  @IsOptional() @IsString() @MaxLength(50) zip_code?: string | null;
  @IsOptional() @IsString() @MaxLength(TEXT) location?: string | null;
  @IsOptional() @IsEmail() @MaxLength(254) email?: string | null;
  @IsOptional() @IsString() @MaxLength(50) phone_number?: string | null;
  @IsOptional() @IsString() @MaxLength(50) mobile_number?: string | null;
  /** ISO 3166-1 alpha-2; must be one of `available_countries`. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be an ISO 3166-1 alpha-2 code' })
  country_code?: string | null;
  /** Read only: the country's name in the active language. */
  @IsOptional() @IsString() @MaxLength(TEXT) country_name?: string | null;
  /**
   * Province or state as an ISO 3166-2 subdivision code of `country_code` (`ES-CN`, `US-CA`): an added optional
   * member (issue 31) for tax and shipping zones made of regions. Answers carry it only when it is set.
   */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'ES-CN' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/, { message: 'region must be an ISO 3166-2 subdivision code (like ES-CN)' })
  region?: string | null;
}

/** PUT /checkouts/{token}; every member optional. */
export class UpdateCheckoutDto {
  /** An object (an array is 422: ValidateNested alone would take `[]` as "every element valid"). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CheckoutAddressDto)
  shipping_address?: CheckoutAddressDto | null;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CheckoutAddressDto)
  billing_address?: CheckoutAddressDto | null;
  /** true or false; null is refused (the column cannot be empty). */
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  billing_same_as_shipping?: boolean;
  /** Must be offered for the shipping country (`shipping_options`). */
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  shipping_method_id?: string | null;
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  payment_type_id?: string | null;
  @OptionalText(5000)
  comments?: string | null;
}

/** POST /checkouts/{token}/complete. Consent is never stored: send it on every call. */
export class CompleteCheckoutDto {
  /** Required unless gift cards and store credit pay the whole total (`amount_due` 0). */
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID()
  payment_type_id?: string | null;
  @OptionalText(5000)
  comments?: string | null;
  /** Required for every payment type except prepayment and invoice; the buyer returns here with order_id and hash. */
  @OptionalText(2000)
  return_url?: string | null;
  @OptionalBoolean()
  accepted_terms?: boolean;
  @OptionalBoolean()
  age_confirmed?: boolean;
}

export class CheckoutLineDto {
  id: string;
  /** The variant id; null when the variant no longer exists. */
  article_id: string | null;
  title: string | null;
  sku: string | null;
  quantity: number;
  /** Net unit price. */
  unit_price: number;
  unit_price_with_tax: number;
  /** Net line total. */
  line_total: number;
  line_total_with_tax: number;
  image_url: string | null;
  /** What promotions took off this line, in the shop's price basis (issue 32); present only when promotions apply (open checkout: the shop has one active; completed: the order applied one). */
  @ApiPropertyOptional({ type: () => [LinePromotionDto] })
  promotions?: LinePromotionDto[];
}

export class TaxLineDto {
  name: string;
  rate: number;
  amount: number;
}

export class CheckoutTotalsDto {
  /** subtotal_before_discount - discount. */
  subtotal: number;
  /** The lines in the shop's price basis (gross when price_includes_tax). */
  subtotal_before_discount: number;
  tax_amount: number;
  shipping_amount: number;
  shipping_tax_rate: number;
  shipping_method_name: string | null;
  discount: number;
  coupon_text: string | null;
  /** subtotal + shipping_amount (+ tax_amount when prices exclude tax). */
  total: number;
  currency: string;
  price_includes_tax: boolean;
  @ApiProperty({ type: () => [TaxLineDto] })
  tax_lines: TaxLineDto[];
  /** Only for a shop taxing by destination (README "Taxes"): the excise charged (inside `total`; in `tax_lines` only with `excise_display: included`). */
  excise_amount?: number;
  /** Only for a shop taxing by destination: the zone whose rates applied (null: none matched, origin rates). */
  tax_zone?: string | null;
  /** Only for a destination-taxed shop whose prices include tax: `constant` (shelf price kept) or `recompute` (net kept). */
  gross_price_policy?: string | null;
  /** The promotions applied, by promotion (issue 32): line parts inside `discount`, shipping parts taken off `shipping_amount`; present as `promotions` on the lines. */
  @ApiPropertyOptional({ type: () => [PromotionDiscountDto] })
  discounts?: PromotionDiscountDto[];
}

export class ShippingOptionDto {
  id: string;
  name: string;
  /** The price for this checkout (0 when over the free threshold), as a decimal string. */
  price: string;
  /** ISO date (YYYY-MM-DD); an empty string when the method names no delivery time (SPEC: a string, not nullable). */
  expected_delivery_date: string;
}

export class PaymentTypeOptionDto {
  id: string;
  name: string;
  /** An empty string when the payment type has no image (SPEC: a string, not nullable). */
  image_url: string;
}

export class CountryOptionDto {
  code: string;
  name: string;
}

export class TermsComplianceDto {
  required: boolean;
  /** An empty string when the shop configures none (SPEC: a string, not nullable). */
  terms_url: string;
  privacy_url: string;
}

export class AgeComplianceDto {
  required: boolean;
  /** 0 when no check is required. */
  min_age: number;
}

export class DestinationReasonDto {
  /** `destination_closed`, `volume_limit_exceeded` or `age_requirement` (the 422 code at completion). */
  @ApiProperty({ enum: ['destination_closed', 'volume_limit_exceeded', 'age_requirement'] })
  code: string;
  /** The key of the zone whose rule applies. */
  zone: string;
  message: string;
}

export class DestinationComplianceDto {
  /** False: completing is refused (an age requirement alone is met by `age_confirmed`). */
  allowed: boolean;
  @ApiProperty({ type: () => [DestinationReasonDto] })
  reasons: DestinationReasonDto[];
}

export class ComplianceDto {
  @ApiProperty({ type: () => TermsComplianceDto })
  terms: TermsComplianceDto;
  @ApiProperty({ type: () => AgeComplianceDto })
  age_verification: AgeComplianceDto;
  /** The destination rules' verdict (README "Shipping"); present only in shops with destination rules. */
  @ApiProperty({ type: () => DestinationComplianceDto, required: false })
  destination?: DestinationComplianceDto;
}

/** A gift card or store credit applied to a checkout (issue 33). */
export class AppliedBalanceDto {
  /** The account's id (DELETE /checkouts/{token}/gift_cards/{id} removes it). */
  id: string;
  /** `gift_card` or `store_credit`. */
  kind: string;
  /** A gift card's last four code characters; null for store credit. */
  last_characters: string | null;
  currency: string;
  /** The balance now. */
  balance: number;
  /** What it pays of this checkout's total (after discounts, before the payment provider). */
  amount: number;
}

/** SPEC "Storefront checkout". */
export class StorefrontCheckoutDto {
  /** The opaque token addressing the checkout. */
  id: string;
  currency: string | null;
  is_completed: boolean;
  guest_checkout_enabled: boolean;
  comments: string | null;
  @ApiProperty({ type: () => [CheckoutLineDto] })
  line_items: CheckoutLineDto[];
  @ApiProperty({ type: () => CheckoutTotalsDto })
  totals: CheckoutTotalsDto;
  @ApiProperty({ type: () => [ShippingOptionDto] })
  shipping_options: ShippingOptionDto[];
  selected_shipping_method_id: string | null;
  @ApiProperty({ type: () => [PaymentTypeOptionDto] })
  payment_types: PaymentTypeOptionDto[];
  selected_payment_type_id: string | null;
  @ApiProperty({ type: () => CheckoutAddressDto })
  shipping_address: CheckoutAddressDto;
  @ApiProperty({ type: () => CheckoutAddressDto })
  billing_address: CheckoutAddressDto;
  billing_same_as_shipping: boolean;
  @ApiProperty({ type: () => [CountryOptionDto] })
  available_countries: CountryOptionDto[];
  @ApiProperty({ type: () => ComplianceDto })
  compliance: ComplianceDto;
  /** Gift cards and store credit applied, in the order they pay (issue 33); present only while one is applied to an open checkout. */
  @ApiPropertyOptional({ type: () => [AppliedBalanceDto] })
  gift_cards?: AppliedBalanceDto[];
  /** What is left for the payment provider: `totals.total` less what the gift cards and credit pay; present with `gift_cards`. */
  @ApiPropertyOptional()
  amount_due?: number;
}

/** SPEC "Complete result" (under the `checkout` key). */
export class CompleteResultDto {
  success: boolean;
  /** Set when the payment type needs a provider redirect. */
  payment_url: string | null;
  order_id: string;
  order_number: string;
  /** Keep with order_id: the guest receipt read needs both. */
  hash: string;
}

/** POST /checkouts/{token}/gift_cards. */
export class ApplyGiftCardDto {
  @IsString()
  @Length(1, 64)
  code: string;
}
