import { Body, Controller, Delete, Get, HttpCode, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { parseAdminProductFilters } from './admin-product-filters.js';
import { AdminProductsService } from './admin-products.service.js';
import { AdminProductDto, AdminProductListQueryDto, AdminProductRowDto, AdminVariantDto } from './dto/admin-product.dto.js';
import { CatalogueExportService, ExportFormat } from './export/catalogue-export.service.js';

/** Bodies are the import's member schemas (`import/import-schema.ts`), published as components. */
const body = (schema: string, description: string) => ApiBody({ schema: { $ref: `#/components/schemas/${schema}` }, description });

const IDEMPOTENCY_DOC = {
  name: 'Idempotency-Key',
  required: false,
  description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer',
};

/** The admin catalogue API: products and variants member by member, and the export (README "Admin catalogue API"). */
@ApiTags('admin: catalogue')
@Controller('admin')
export class AdminProductsController {
  constructor(
    private readonly products: AdminProductsService,
    private readonly exporter: CatalogueExportService,
    private readonly pager: Pager,
  ) {}

  /** Every live product, published or not; cursored (`Link`), newest first by default. */
  @Get('products')
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/read' })
  @Envelope('products', [AdminProductRowDto])
  @ApiQuery({ type: AdminProductListQueryDto })
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams): Promise<Page<AdminProductRowDto>> {
    const page = this.pager.request(list, 'admin.products');
    return this.products.list(ctx, page, parseAdminProductFilters(list.query));
  }

  /** Creates a product (and its variants) from CONTRACT 6 members; keys are generated when omitted. */
  @Post('products')
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  @Envelope('product', AdminProductDto, 201)
  @ApiHeader(IDEMPOTENCY_DOC)
  @ApiErrors({ 422: ['currency_mismatch'] })
  @body('AdminProductCreate', 'CONTRACT 6 product members (`ImportProduct`), `title` required')
  create(@Ctx() ctx: RequestContext, @Body() body: unknown): Promise<AdminProductDto> {
    return this.products.create(ctx, body);
  }

  /** Everything the import can set, in every language, plus read-only facts; `PUT` of it changes nothing. */
  @Get('products/:id')
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/read' })
  @Envelope('product', AdminProductDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<AdminProductDto> {
    return this.products.get(ctx, id);
  }

  /** Partial update: absent members unchanged, null clears; validated like the import, in one transaction. */
  @Put('products/:id')
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  @Envelope('product', AdminProductDto)
  @ApiErrors({ 422: ['currency_mismatch'] })
  @body('ImportProduct', 'the members to change: absent = unchanged, null = cleared where nullable')
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: unknown): Promise<AdminProductDto> {
    return this.products.update(ctx, id, body);
  }

  /** 204: removed, or kept unpublished as archived when it has order history. */
  @Delete('products/:id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.products.delete(ctx, id);
  }

  @Post('products/:id/variants')
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  @Envelope('variant', AdminVariantDto, 201)
  @ApiHeader(IDEMPOTENCY_DOC)
  @ApiErrors({ 422: ['currency_mismatch'] })
  @body('AdminVariantCreate', 'CONTRACT 6 variant members (`ImportVariant`), `price` required')
  createVariant(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: unknown): Promise<AdminVariantDto> {
    return this.products.createVariant(ctx, id, body);
  }

  @Put('products/:id/variants/:variant_id')
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  @Envelope('variant', AdminVariantDto)
  @ApiErrors({ 422: ['currency_mismatch'] })
  @body('ImportVariant', 'the members to change: absent = unchanged, null = cleared where nullable')
  updateVariant(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') id: string,
    @UuidParam('variant_id') variantId: string,
    @Body() body: unknown,
  ): Promise<AdminVariantDto> {
    return this.products.updateVariant(ctx, id, variantId, body);
  }

  /** 204: removed, or kept unpublished as archived when it has order history. */
  @Delete('products/:id/variants/:variant_id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/write' })
  async deleteVariant(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('variant_id') variantId: string): Promise<void> {
    await this.products.deleteVariant(ctx, id, variantId);
  }

  /**
   * The whole catalogue as the CONTRACT 6 import document, streamed from one snapshot: JSON (default), or NDJSON
   * fragments with `?format=ndjson` or `Accept: application/x-ndjson`.
   */
  @Get('catalogue/export')
  @Auth({ tier: 'admin', scope: 'Shop/catalogue/read' })
  @ApiQuery({ name: 'format', required: false, enum: ['json', 'ndjson'] })
  @ApiOkResponse({
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/CatalogueImportDocument' } },
      'application/x-ndjson': { schema: { $ref: '#/components/schemas/CatalogueImportFragment' } },
    },
    description: 'the import document (JSON), or one `CatalogueImportFragment` per line (NDJSON)',
  })
  async export(@Ctx() ctx: RequestContext, @Req() req: Request, @Res() res: Response): Promise<void> {
    const format = exportFormat(req);
    await this.exporter.export(ctx, format, res, () => {
      res.status(200);
      res.setHeader('Content-Type', format === 'json' ? 'application/json; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="catalogue.${format}"`);
      res.setHeader('Cache-Control', 'no-store');
    });
  }
}

function exportFormat(req: Request): ExportFormat {
  const q = req.query.format;
  if (q !== undefined) {
    if (q !== 'json' && q !== 'ndjson') throw AppError.unprocessable('format must be json or ndjson');
    return q;
  }
  const preferred = req.accepts(['application/json', 'application/x-ndjson', 'application/jsonl']);
  return preferred === 'application/x-ndjson' || preferred === 'application/jsonl' ? 'ndjson' : 'json';
}
