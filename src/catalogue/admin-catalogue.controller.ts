import { Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { SpooledNdjson } from '../common/http/ndjson-body.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import { CollectionQueryPipe, type CollectionQuery } from './catalogue-query.pipe.js';
import { AdminCollectionProductsQuery } from './dto/catalogue-list-query.dto.js';
import { ProductListResponseDto } from './dto/catalogue.dto.js';
import { spliceJson } from './preserialized-json.js';
import { CatalogueImportService, ImportReport } from './import/catalogue-import.service.js';
import { ProductListDto, StorefrontCatalogueService } from './storefront-catalogue.service.js';

@ApiTags('admin: catalogue')
@Controller('admin')
export class AdminCatalogueController {
  constructor(
    private readonly importer: CatalogueImportService,
    private readonly catalogue: StorefrontCatalogueService,
  ) {}

  /**
   * The catalogue import of CONTRACT 6 (upsert by key, one transaction, idempotent); see README "Import". The body is
   * the JSON document, or its NDJSON form (what `GET /admin/catalogue/export?format=ndjson` streams).
   */
  @Post('catalogue/import')
  @HttpCode(200)
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  @Envelope('import')
  @ApiErrors({ 422: ['currency_mismatch'] })
  @ApiOkResponse({
    description: '{import: {created, updated, ids}}',
    schema: {
      type: 'object',
      required: ['import'],
      properties: {
        import: {
          type: 'object',
          properties: {
            created: { type: 'object', additionalProperties: { type: 'integer' }, description: 'rows created per kind' },
            updated: { type: 'object', additionalProperties: { type: 'integer' }, description: 'rows changed per kind' },
            ids: { type: 'object', additionalProperties: { type: 'object' }, description: 'per kind, key to uuid (facets: per dimension)' },
          },
        },
      },
    },
  })
  @ApiOperation({
    summary: 'The catalogue import of CONTRACT 6 (upsert by key, one transaction, idempotent)',
    description: 'The body is the JSON document, or its NDJSON form (what `GET /admin/catalogue/export?format=ndjson` streams).',
    requestBody: {
      required: true,
      description:
        'The import document (JSON, 50 MB at most), or its NDJSON form: one `CatalogueImportFragment` per line (same limit and validation), spooled to a temporary file and imported with one batch of products in memory at a time.',
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/CatalogueImportDocument' } },
        'application/x-ndjson': { schema: { $ref: '#/components/schemas/CatalogueImportFragment' } },
      },
    },
  })
  import(@Ctx() ctx: RequestContext, @Req() req: Request): Promise<ImportReport> {
    // the body guard has spooled an NDJSON body to a temporary file (removed when the response ends)
    if (req.body instanceof SpooledNdjson) return req.body.read((path) => this.importer.importNdjson(ctx, path));
    return this.importer.import(ctx, req.body);
  }

  /** A collection's published products with the catalogue filters; never facets. */
  @Get('collections/:id/products')
  @Auth({ tier: 'admin', scope: 'Shop/collections/read' })
  @Envelope('products')
  @ApiOkResponse({ type: ProductListResponseDto, description: '{products, price_range}; never facets' })
  @ApiQuery({ type: AdminCollectionProductsQuery })
  collectionProducts(
    @Ctx() ctx: RequestContext,
    @Query(CollectionQueryPipe.products) query: CollectionQuery,
    @ListParams() list: ListParams,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Page<ProductListDto>> {
    spliceJson(res);
    return this.catalogue.collectionProducts(ctx, query, list, id, true);
  }
}
