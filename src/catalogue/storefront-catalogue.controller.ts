import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../common/auth/auth.decorator.js';
import { ReadFromReplica } from '../database/read-replicas.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import type { CatalogueFilters } from './catalogue-filters.js';
import { CatalogueQueryPipe, CollectionQueryPipe, type CollectionQuery } from './catalogue-query.pipe.js';
import { CatalogueFacetFiltersQuery, CatalogueListQuery, ProductFacetsQuery, ProductListQuery } from './dto/catalogue-list-query.dto.js';
import { FacetsResponseDto, ProductListResponseDto, VariantsResponseDto } from './dto/catalogue.dto.js';
import { FactsheetService } from './factsheet.service.js';
import { spliceJson } from './preserialized-json.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { AppError } from '../common/http/app-error.js';
import {
  FacetDto,
  PriceRangeDto,
  ProductDetailDto,
  ProductListDto,
  StorefrontCatalogueService,
  StorefrontCollectionDto,
  VariantDto,
} from './storefront-catalogue.service.js';

/** Storefront products and collections (SPEC "Storefront: products and collections", CONTRACT 7). */
@ApiTags('storefront: catalogue')
@Controller()
@Auth({ tier: 'storefront', scope: 'storefront/catalogue' })
@ReadFromReplica()
export class StorefrontCatalogueController {
  constructor(private readonly catalogue: StorefrontCatalogueService) {}

  /** Filtered, ordered, cursored products with `price_range`, and `facets` with include=facets. */
  @Get('products')
  @Envelope('products')
  @ApiOkResponse({ type: ProductListResponseDto })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the weak ETag, whatever the Content-Encoding).' })
  @ApiQuery({ type: ProductListQuery })
  list(
    @Ctx() ctx: RequestContext,
    @Query(CatalogueQueryPipe.products) filters: CatalogueFilters,
    @ListParams() list: ListParams,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Page<ProductListDto>> {
    spliceJson(res);
    return this.catalogue.listProducts(ctx, filters, list, 'storefront.products', null);
  }

  /** Facets and price range of the filtered catalogue. */
  @Get('products/facets')
  @ApiOkResponse({ type: FacetsResponseDto })
  @ApiQuery({ type: ProductFacetsQuery })
  facets(
    @Ctx() ctx: RequestContext,
    @Query(CatalogueQueryPipe.facets) filters: CatalogueFilters,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    spliceJson(res);
    return this.catalogue.facetsOnly(ctx, filters, null);
  }

  /** A product by its handle (the storefront's URLs carry handles): the same detail as GET /products/{id}. */
  @Get('products/by_handle')
  @Envelope('product', ProductDetailDto)
  @ApiErrors({ 404: [] })
  @ApiQuery({ name: 'handle', required: true, type: String, description: "the product's handle, exactly (422 naming `handle` when missing or empty)" })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the weak ETag, whatever the Content-Encoding).' })
  productByHandle(@Ctx() ctx: RequestContext, @Query('handle') handle: unknown): Promise<ProductDetailDto> {
    if (typeof handle !== 'string' || handle.trim() === '') throw AppError.unprocessable('handle is required (a product handle)');
    return this.catalogue.productByHandle(ctx, handle);
  }

  @Get('products/:id')
  @Envelope('product', ProductDetailDto)
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the weak ETag, whatever the Content-Encoding).' })
  product(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ProductDetailDto> {
    return this.catalogue.product(ctx, id);
  }

  @Get('products/:id/variants')
  @ApiOkResponse({ type: VariantsResponseDto })
  variants(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<{ currency: string; variants: VariantDto[] }> {
    return this.catalogue.variants(ctx, id);
  }

  @Get('collections')
  @Envelope('collections', [StorefrontCollectionDto])
  collections(@Ctx() ctx: RequestContext): Promise<StorefrontCollectionDto[]> {
    return this.catalogue.listCollections(ctx);
  }

  @Get('collections/:id')
  @Envelope('collection', StorefrontCollectionDto)
  collection(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<StorefrontCollectionDto> {
    return this.catalogue.getCollection(ctx, id);
  }

  @Get('collections/:id/products')
  @Envelope('products')
  @ApiOkResponse({ type: ProductListResponseDto })
  @ApiQuery({ type: CatalogueListQuery })
  collectionProducts(
    @Ctx() ctx: RequestContext,
    @Query(CollectionQueryPipe.products) query: CollectionQuery,
    @ListParams() list: ListParams,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Page<ProductListDto>> {
    spliceJson(res);
    return this.catalogue.collectionProducts(ctx, query, list, id, false);
  }

  @Get('collections/:id/facets')
  @ApiOkResponse({ type: FacetsResponseDto })
  @ApiQuery({ type: CatalogueFacetFiltersQuery })
  collectionFacets(
    @Ctx() ctx: RequestContext,
    @Query(CollectionQueryPipe.facets) query: CollectionQuery,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ facets: FacetDto[]; price_range: PriceRangeDto }> {
    spliceJson(res);
    return this.catalogue.collectionFacets(ctx, query, id);
  }
}

/** The variant factsheet PDF, outside the versioned API path (CONTRACT 4). */
@ApiTags('storefront: catalogue')
@Controller('storefront/factsheets')
@Auth({ tier: 'storefront', scope: 'storefront/catalogue' })
@ReadFromReplica()
export class FactsheetController {
  constructor(private readonly factsheets: FactsheetService) {}

  /** The factsheet PDF of a variant (`{variant id}.pdf`), in the active language; ETag and 304 on If-None-Match. */
  @Get(':file')
  @ApiProduces('application/pdf')
  @ApiResponse({
    status: 200,
    description: 'The PDF.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: { ETag: { schema: { type: 'string' } }, Vary: { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag).' })
  @ApiErrors({ 503: ['factsheets_busy'] })
  async factsheet(@Ctx() ctx: RequestContext, @Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { pdf, etag } = await this.factsheets.factsheet(ctx, file.replace(/\.pdf$/i, ''));
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'public, max-age=300');
    // language, the shop (token or Host) and the visitor's currency (cookie) select the content
    res.setHeader('Vary', 'Accept-Language, Authorization, Cookie, Host');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Length', String(pdf.length));
    res.status(200).end(pdf);
  }
}
