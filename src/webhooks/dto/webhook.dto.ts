import { OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import { EVENT_TOPICS } from '../../events/index.js';
import type { WebhookDeliveryAttempt } from '../entities/webhook-delivery-attempt.entity.js';
import type { WebhookSubscription } from '../entities/webhook-subscription.entity.js';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';

const TOPIC_MESSAGE = `topic must be one of: ${EVENT_TOPICS.join(', ')}`;

export class CreateWebhookDto {
  /** The domain event to receive, e.g. `order.placed`. */
  @IsString()
  @IsIn(EVENT_TOPICS, { message: TOPIC_MESSAGE })
  topic: string;

  /** Absolute http(s) URL the events are POSTed to; unique per topic within the shop. */
  @IsString()
  @MaxLength(2048)
  address: string;

  /** Default true. On update, false stops deliveries (pending ones are dropped); true re-activates and clears failing_since. */
  @OptionalBoolean()
  is_active?: boolean | null;
}

/**
 * Every member optional (`PartialType`). `topic` and `address` are redeclared only for their type: null passes
 * validation and the service refuses it (422).
 */
export class UpdateWebhookDto extends PartialType(OmitType(CreateWebhookDto, ['topic', 'address'] as const)) {
  @IsOptional()
  @IsString()
  @IsIn(EVENT_TOPICS, { message: TOPIC_MESSAGE })
  topic?: string | null;

  @OptionalText(2048)
  address?: string | null;
}

export class WebhookListQueryDto extends PageQueryDto {
  /** Only subscriptions of this topic. */
  @IsOptional()
  @IsString()
  @IsIn(EVENT_TOPICS, { message: TOPIC_MESSAGE })
  topic?: string;
}

export class WebhookDto {
  id: string;
  topic: string;
  address: string;
  is_active: boolean;
  /** Set when deliveries failed for the whole retry window (24 h); the subscription was then deactivated. */
  failing_since: string | null;
  created_at: string;
  updated_at: string | null;
}

export class CreatedWebhookDto extends WebhookDto {
  /** The signing secret (`whsec_...`), shown only in this response. */
  secret: string;
}

export class WebhookDeliveryAttemptDto {
  id: string;
  /** The event id, also sent as X-Webhook-Id. */
  event_id: string;
  topic: string;
  /** 1 for the first attempt of an event's delivery. */
  attempt: number;
  /** The receiver's status; null when no response came. */
  status_code: number | null;
  /** Why no response came (timeout, connection error); null otherwise. */
  error: string | null;
  duration_ms: number;
  created_at: string;
}

export function mapWebhook(s: WebhookSubscription): WebhookDto {
  return {
    id: s.id,
    topic: s.topic,
    address: s.address,
    is_active: s.isActive,
    failing_since: s.failingSince ? s.failingSince.toISOString() : null,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt ? s.updatedAt.toISOString() : null,
  };
}

export function mapDeliveryAttempt(a: WebhookDeliveryAttempt): WebhookDeliveryAttemptDto {
  return {
    id: a.id,
    event_id: a.eventId,
    topic: a.topic,
    attempt: a.attempt,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
    created_at: a.createdAt.toISOString(),
  };
}
