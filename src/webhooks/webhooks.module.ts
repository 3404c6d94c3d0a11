import { Module } from '@nestjs/common';
import { registerAdminResource } from '../common/auth/scopes.js';
import { AdminWebhooksController } from './admin-webhooks.controller.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksService } from './webhooks.service.js';

// at import time, so `tenant create` owners (auth.allAdminScopes()) hold Shop/webhooks/read and /write
registerAdminResource('webhooks');

/** Admin webhook subscriptions and the delivery worker (needs the global EventsModule). */
@Module({
  controllers: [AdminWebhooksController],
  providers: [WebhooksService, WebhookDeliveryWorker],
  exports: [WebhooksService, WebhookDeliveryWorker],
})
export class WebhooksModule {}
