import { Module } from '@nestjs/common';
import { adminResource } from '../extensions/index.js';
import { AdminWebhooksController } from './admin-webhooks.controller.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksService } from './webhooks.service.js';
import { DeliveriesBacklog } from './webhooks.extensions.js';

/** Admin webhook subscriptions and the delivery worker (needs the global EventsModule). */
@Module({
  controllers: [AdminWebhooksController],
  // Shop/webhooks/read and /write: new shop owners (auth.allAdminScopes()) hold them
  providers: [WebhooksService, WebhookDeliveryWorker, DeliveriesBacklog, adminResource('webhooks')],
  exports: [WebhooksService, WebhookDeliveryWorker],
})
export class WebhooksModule {}
