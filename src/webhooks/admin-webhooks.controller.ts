import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { CreatedWebhookDto, CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryAttemptDto, WebhookDto, WebhookListQueryDto } from './dto/webhook.dto.js';
import { WebhooksService } from './webhooks.service.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

@ApiTags('admin: webhooks')
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly pager: Pager,
  ) {}

  /** The shop's webhook subscriptions, oldest first; cursored (`Link: <...>; rel="next"`). Never a secret. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/read' })
  @Envelope('webhooks', [WebhookDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() query: WebhookListQueryDto): Promise<Page<WebhookDto>> {
    return this.webhooks.list(ctx, this.pager.request(list, 'admin.webhooks'), { topic: query.topic });
  }

  /** Subscribes an http(s) address to a topic; the signing `secret` appears only in this response. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/write' })
  @Envelope('webhook', CreatedWebhookDto, 201)
  @ApiErrors({ 422: ['webhook_address_not_allowed'] })
  create(@Ctx() ctx: RequestContext, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.webhooks.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/read' })
  @Envelope('webhook', WebhookDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<WebhookDto> {
    return this.webhooks.get(ctx, id);
  }

  /** Applies only the supplied members (topic, address, is_active); the secret never changes. */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/write' })
  @Envelope('webhook', WebhookDto)
  @ApiErrors({ 422: ['webhook_address_not_allowed'] })
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateWebhookDto): Promise<WebhookDto> {
    return this.webhooks.update(ctx, id, body);
  }

  /** 204; a second delete (or a foreign id) is 404. */
  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.webhooks.delete(ctx, id);
  }

  /** Delivery attempts to this subscription, newest first; cursored. */
  @Get(':id/deliveries')
  @Auth({ tier: 'admin', scope: 'Shop/webhooks/read' })
  @Envelope('deliveries', [WebhookDeliveryAttemptDto])
  deliveries(
    @Ctx() ctx: RequestContext,
    @ListParams() list: ListParams,
    @UuidParam('id') id: string,
    @Query() _query: PageQueryDto,
  ): Promise<Page<WebhookDeliveryAttemptDto>> {
    return this.webhooks.attempts(ctx, id, this.pager.request(list, 'admin.webhook_deliveries'));
  }
}
