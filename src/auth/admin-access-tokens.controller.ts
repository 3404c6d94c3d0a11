import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { AuthService } from './auth.service.js';
import { AccessTokenDto, CreateAccessTokenDto, mapAccessToken, mapMinted, MintedAccessTokenDto } from './dto/access-token.dto.js';

@ApiTags('admin: access tokens')
@Controller('admin/access_tokens')
export class AdminAccessTokensController {
  constructor(private readonly auth: AuthService) {}

  /** Active (non-revoked) tokens, newest first, unpaged, never a secret. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/access_tokens/read' })
  @Envelope('access_tokens', [AccessTokenDto])
  async list(@Ctx() ctx: RequestContext): Promise<AccessTokenDto[]> {
    return (await this.auth.listActive(ctx)).map(mapAccessToken);
  }

  /** Mints a token issued by the caller's issuer, with at most the caller's own admin scopes; the plaintext appears only in this response. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/access_tokens/write' })
  @Envelope('access_token', MintedAccessTokenDto, 201)
  async create(@Ctx() ctx: RequestContext, @Body() body: CreateAccessTokenDto): Promise<MintedAccessTokenDto> {
    if (ctx.actor.type !== 'staff') throw AppError.unauthorized();
    return mapMinted(await this.auth.mint(ctx, ctx.actor.staffId, body, ctx.scopes));
  }

  /** Revokes a token; an already-revoked or foreign id is 404. */
  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/access_tokens/write' })
  async revoke(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.auth.revoke(ctx, id);
  }
}
