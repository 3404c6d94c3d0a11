import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { UuidParam } from '../common/http/uuid-param.js';
import { sendAsset } from './asset-response.js';
import { ThemeAssetsService } from './theme-assets.service.js';

/**
 * CONTRACT 4's storefront asset URL, outside the versioned prefix and without auth: the theme id names the shop,
 * and any theme of it is served (unpublished ones too, for previews).
 */
@ApiTags('storefront: theme assets')
@Controller('storefront/themes')
export class StorefrontThemesController {
  constructor(private readonly assets: ThemeAssetsService) {}

  /** An asset's bytes with its stored Content-Type, ETag and caching headers; 304 on If-None-Match. */
  @Get(':themeId/assets/*key')
  @ApiParam({ name: 'key', description: 'The asset key, slashes included (`assets/theme.css`).' })
  @ApiResponse({
    status: 200,
    description: 'The raw bytes.',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
    headers: { ETag: { schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag).' })
  async asset(@UuidParam('themeId') themeId: string, @Param('key') key: string[] | string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const asset = await this.assets.findPublic(themeId, Array.isArray(key) ? key.join('/') : key);
    await sendAsset(req, res, asset, () => this.assets.open(asset));
  }
}
