import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';

/** `limit` and `page_info` of every cursored list. */
export class PageQueryDto {
  /** Page size; clamped to 1..250, 50 when omitted. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  limit?: number;

  /** Opaque cursor from a previous response's Link header. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  page_info?: string;
}
