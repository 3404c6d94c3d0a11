import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';
import { PageQueryDto } from 'vinoshop-commerce';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** `PUT /admin/wine_club/prices/{variant_id}`. */
export class SetClubPriceDto {
  /** Gross club price in the shop's default currency (at most 4 decimals). */
  @ApiProperty({ type: 'number', minimum: 0, maximum: 1e9 })
  @IsNumber({ maxDecimalPlaces: 4, allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1e9)
  price: number;
}

/** `PUT /admin/wine_club/members/{customer_id}`. */
export class SetMemberDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 24 })
  @IsInt()
  @Min(1)
  @Max(24)
  bottles_per_month: number;
}

/** `POST /admin/wine_club/allocations`. */
export class RunAllocationDto {
  /** The month to allocate (`YYYY-MM`); default: the current month (UTC). */
  @ApiPropertyOptional({ pattern: MONTH.source, example: '2026-11' })
  @IsOptional()
  @Matches(MONTH, { message: 'month must be YYYY-MM' })
  month?: string;
}

/** `GET /admin/wine_club/allocations?month=`. */
export class AllocationListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: MONTH.source, example: '2026-11' })
  @IsOptional()
  @Matches(MONTH, { message: 'month must be YYYY-MM' })
  month?: string;
}

export class ClubPriceDto {
  @ApiProperty({ format: 'uuid' })
  variant_id: string;
  @ApiProperty({ format: 'uuid' })
  product_id: string;
  /** Gross, in the shop's default currency. */
  @ApiProperty({ type: 'number' })
  price: number;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  updated_at: string | null;
}

export class ClubMemberDto {
  @ApiProperty({ format: 'uuid' })
  customer_id: string;
  @ApiProperty({ type: 'integer' })
  bottles_per_month: number;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  updated_at: string | null;
}

export class ClubAllocationDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  customer_id: string;
  @ApiProperty({ example: '2026-11' })
  month: string;
  @ApiProperty({ type: 'integer' })
  bottles: number;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class AllocationRunDto {
  @ApiProperty({ example: '2026-11' })
  month: string;
  /** Allocations made by this run (members already allocated that month are skipped). */
  @ApiProperty({ type: 'integer' })
  created: number;
}
