import { Module } from '@nestjs/common';
import { outboxEventSweeps } from '../events/index.js';
import { adminResource, cleanupSweepsOf, queueBacklogOf } from '../extensions/index.js';
import { AdminWebhooksController } from './admin-webhooks.controller.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WEBHOOK_SWEEPS, webhookDeliveryPending, WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Admin webhook subscriptions and the delivery worker (needs the global EventsModule). */
@Module({
  controllers: [AdminWebhooksController],
  // Shop/webhooks/read and /write: new shop owners (auth.allAdminScopes()) hold them
  providers: [
    // the delivered outbox events go after the attempts and deliveries that wait on them (the events module's
    // statement, given the deliveries' condition)
    cleanupSweepsOf('webhooks', [...WEBHOOK_SWEEPS, ...outboxEventSweeps([webhookDeliveryPending])]),
    WebhooksService,
    WebhooksRepository,
    WebhookDeliveryWorker,
    queueBacklogOf('webhooks', 'webhook_deliveries'),
    adminResource('webhooks'),
  ],
  exports: [WebhooksService, WebhookDeliveryWorker],
})
export class WebhooksModule {}
