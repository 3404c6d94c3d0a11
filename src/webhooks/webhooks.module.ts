import { Module } from '@nestjs/common';
import { adminResource, queueBacklogOf } from '../extensions/index.js';
import { AdminWebhooksController } from './admin-webhooks.controller.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Admin webhook subscriptions and the delivery worker (needs the global EventsModule). */
@Module({
  controllers: [AdminWebhooksController],
  // Shop/webhooks/read and /write: new shop owners (auth.allAdminScopes()) hold them
  providers: [WebhooksService, WebhooksRepository, WebhookDeliveryWorker, queueBacklogOf('webhooks', 'webhook_deliveries'), adminResource('webhooks')],
  exports: [WebhooksService, WebhookDeliveryWorker],
})
export class WebhooksModule {}
