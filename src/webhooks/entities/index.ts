import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';

export const webhookEntities = [WebhookSubscription, WebhookDelivery, WebhookDeliveryAttempt];
