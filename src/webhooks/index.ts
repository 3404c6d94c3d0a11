/** The public surface of `webhooks` for other modules (feature -> feature imports go through this file only). */
export { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
