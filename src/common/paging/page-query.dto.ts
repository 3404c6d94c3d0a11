import { Type } from 'class-transformer';
import { IsInt, IsOptional } from 'class-validator';
import { OptionalText } from '../http/dto-fields.js';

/** `limit` and `page_info` of every cursored list. */
export class PageQueryDto {
  /** Page size; clamped to 1..250, 50 when omitted. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  limit?: number;

  /** Opaque cursor from a previous response's Link header. */
  @OptionalText(2048)
  page_info?: string;
}
