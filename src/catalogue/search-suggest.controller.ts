import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ReadFromReplica } from '../database/read-replicas.js';
import { SuggestResponseDto, type SuggestionGroupDto } from './dto/search-suggest.dto.js';
import { spliceJson } from './preserialized-json.js';
import { SearchSuggestService } from './search-suggest.service.js';

export const SUGGEST_LIMIT_DEFAULT = 8;
export const SUGGEST_LIMIT_MAX = 20;

/**
 * Checks `q` and `limit` as `GET /search/suggest` takes them (422 naming the bad one); the limit. Shared with the
 * fast lane (`suggest-fast-lane.ts`), which leaves a request it throws for to this controller.
 */
export function suggestLimit(q: unknown, limit: unknown): number {
  if (typeof q !== 'string' || q.trim() === '') throw AppError.unprocessable('q is required (what was typed, at least 1 character)');
  if (q.trim().length > 200) throw AppError.unprocessable('q must be at most 200 characters');
  if (limit === undefined) return SUGGEST_LIMIT_DEFAULT;
  if (typeof limit !== 'string' || !/^[0-9]+$/.test(limit) || Number(limit) < 1 || Number(limit) > SUGGEST_LIMIT_MAX)
    throw AppError.unprocessable(`limit must be an integer from 1 to ${SUGGEST_LIMIT_MAX}`);
  return Number(limit);
}

/** Suggestions as you type (issue 35; README "Search"). */
@ApiTags('storefront: catalogue')
@Controller('search')
@Auth({ tier: 'storefront', scope: 'storefront/catalogue' })
@ReadFromReplica()
export class SearchSuggestController {
  constructor(private readonly suggestions: SearchSuggestService) {}

  /**
   * Up to `limit` suggestions for what was typed, grouped by kind: products, producers, facet values (custom-field
   * options under their field's key), categories, collections; labels in the active language, counts of visible
   * products. A `q` without letters or digits answers an empty list.
   */
  @Get('suggest')
  @ApiOkResponse({ type: SuggestResponseDto })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the weak ETag, whatever the Content-Encoding).' })
  @ApiErrors({ 422: [] })
  @ApiQuery({ name: 'q', required: true, type: String, description: 'What was typed (1 to 200 characters after trimming; 422 naming `q` otherwise).' })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: SUGGEST_LIMIT_MAX, default: SUGGEST_LIMIT_DEFAULT },
    description: `Suggestions in total (1 to ${SUGGEST_LIMIT_MAX}, default ${SUGGEST_LIMIT_DEFAULT}; 422 naming \`limit\` otherwise).`,
  })
  async suggest(
    @Ctx() ctx: RequestContext,
    @Query('q') q: unknown,
    @Query('limit') limit: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ data: SuggestionGroupDto[] }> {
    const n = suggestLimit(q, limit);
    // a kept answer's bytes (and their gzip) are made once, not per request (preserialized by the service)
    spliceJson(res);
    return { data: await this.suggestions.suggest(ctx, q as string, n) };
  }
}
