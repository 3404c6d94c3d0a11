import { Body, Controller, Delete, Get, Headers, HttpCode, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { sendAsset } from './asset-response.js';
import {
  mapBinaryAsset,
  mapTextAsset,
  mapTextAssetRow,
  ThemeBinaryAssetDto,
  ThemeTextAssetDto,
  ThemeTextAssetRowDto,
  UpsertThemeAssetDto,
} from './dto/theme-asset.dto.js';
import { mapTheme, ThemeDto, UpdateThemeDto } from './dto/theme.dto.js';
import { ThemeAssetsService } from './theme-assets.service.js';
import { ThemesService } from './themes.service.js';

const READ = { tier: 'admin', scope: 'Shop/themes/read' } as const;
const WRITE = { tier: 'admin', scope: 'Shop/themes/write' } as const;

@ApiTags('admin: themes')
@ApiExtraModels(ThemeTextAssetDto, ThemeTextAssetRowDto, ThemeBinaryAssetDto)
@Controller('admin/themes')
export class AdminThemesController {
  constructor(
    private readonly themes: ThemesService,
    private readonly assets: ThemeAssetsService,
  ) {}

  /** Every theme of the shop, unpaged; exactly one has role `main`. */
  @Get()
  @Auth(READ)
  @Envelope('themes', [ThemeDto])
  async list(@Ctx() ctx: RequestContext): Promise<ThemeDto[]> {
    return (await this.themes.list(ctx)).map(mapTheme);
  }

  /** One theme (no assets). */
  @Get(':id')
  @Auth(READ)
  @Envelope('theme', ThemeDto)
  async get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ThemeDto> {
    return mapTheme(await this.themes.get(ctx, id));
  }

  /** Renames and/or publishes: role `main` demotes the old main theme; `unpublished` on the main theme is a no-op. */
  @Put(':id')
  @Auth(WRITE)
  @Envelope('theme', ThemeDto)
  async update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateThemeDto): Promise<ThemeDto> {
    return mapTheme(await this.themes.update(ctx, id, body));
  }

  /** Deletes an unpublished theme with its assets (an extension of SPEC); the main theme is 422. */
  @Delete(':id')
  @HttpCode(204)
  @Auth(WRITE)
  async remove(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.themes.delete(ctx, id);
  }

  /** With `key`: `{asset}` (the text asset with its value); without: `{assets}` (rows without content). */
  @Get(':id/assets')
  @Auth(READ)
  @ApiQuery({ name: 'key', required: false })
  @ApiOkResponse({
    description: 'with key `{asset}` (full text asset), without `{assets}` (list rows); exactly one of the two',
    schema: {
      oneOf: [
        { type: 'object', required: ['asset'], properties: { asset: { $ref: getSchemaPath(ThemeTextAssetDto) } } },
        { type: 'object', required: ['assets'], properties: { assets: { type: 'array', items: { $ref: getSchemaPath(ThemeTextAssetRowDto) } } } },
      ],
    },
  })
  async textAssets(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') id: string,
    @Query('key') key: unknown,
  ): Promise<{ asset: ThemeTextAssetDto } | { assets: ThemeTextAssetRowDto[] }> {
    if (key !== undefined) return { asset: mapTextAsset(await this.assets.find(ctx, id, key, 'text')) };
    return { assets: (await this.assets.list(ctx, id, 'text')).map(mapTextAssetRow) };
  }

  /** Creates or replaces a text asset. */
  @Put(':id/assets')
  @Auth(WRITE)
  @Envelope('asset', ThemeTextAssetDto)
  async putTextAsset(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpsertThemeAssetDto): Promise<ThemeTextAssetDto> {
    return mapTextAsset(await this.assets.putText(ctx, id, body.key, body.value));
  }

  @Delete(':id/assets')
  @HttpCode(204)
  @Auth(WRITE)
  @ApiQuery({ name: 'key', required: true })
  async deleteTextAsset(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Query('key') key: unknown): Promise<void> {
    await this.assets.delete(ctx, id, key, 'text');
  }

  /** Without `key`: `{assets}` (binary assets); with `key`: the raw bytes with the stored Content-Type, ETag, 304 on If-None-Match. */
  @Get(':id/assets/data')
  @Auth(READ)
  @ApiQuery({ name: 'key', required: false })
  @ApiOkResponse({
    description: 'without key `{assets}` (binary assets); with key the raw bytes with the stored Content-Type',
    content: {
      'application/json': {
        schema: { type: 'object', required: ['assets'], properties: { assets: { type: 'array', items: { $ref: getSchemaPath(ThemeBinaryAssetDto) } } } },
      },
      '*/*': { schema: { type: 'string', format: 'binary' } },
    },
    headers: { ETag: { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag).' })
  async binaryAssets(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') id: string,
    @Query('key') key: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (key === undefined) {
      res.status(200).json({ assets: (await this.assets.list(ctx, id, 'binary')).map(mapBinaryAsset) });
      return;
    }
    const asset = await this.assets.find(ctx, id, key, 'binary');
    await sendAsset(req, res, asset, () => this.assets.open(asset));
  }

  /** Creates or replaces a binary asset from the raw request body (up to 20 MB); its Content-Type is stored. */
  @Put(':id/assets/data')
  @Auth(WRITE)
  @Envelope('asset', ThemeBinaryAssetDto)
  @ApiQuery({ name: 'key', required: true })
  @ApiConsumes('application/octet-stream', 'image/png', 'image/jpeg', 'font/woff2')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  async putBinaryAsset(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') id: string,
    @Query('key') key: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('content-length') contentLength: string | undefined,
    @Req() req: Request,
  ): Promise<ThemeBinaryAssetDto> {
    return mapBinaryAsset(await this.assets.putBinary(ctx, id, key, { body: req, contentType, contentLength }));
  }

  @Delete(':id/assets/data')
  @HttpCode(204)
  @Auth(WRITE)
  @ApiQuery({ name: 'key', required: true })
  async deleteBinaryAsset(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Query('key') key: unknown): Promise<void> {
    await this.assets.delete(ctx, id, key, 'binary');
  }
}
