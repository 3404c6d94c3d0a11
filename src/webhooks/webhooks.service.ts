import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest } from '../common/paging/pager.service.js';
import { AppConfig } from '../config/app-config.js';
import { isEventTopic, OutboxSink } from '../events/index.js';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  mapDeliveryAttempt,
  mapWebhook,
  UpdateWebhookDto,
  WebhookDeliveryAttemptDto,
  WebhookDto,
} from './dto/webhook.dto.js';
import { WebhookSubscription } from './entities/webhook-subscription.entity.js';
import { newWebhookSecret, SecretBox } from './signature.js';
import { isBlockedAddress, resolveAll } from './target-address.js';
import { WebhooksRepository } from './webhooks.repository.js';

const ADDRESS_TAKEN = AppError.unprocessable('address is already subscribed to this topic');

/** Admin CRUD of webhook subscriptions, their delivery log, and the recording of deliveries with each event. */
@Injectable()
export class WebhooksService extends OutboxSink {
  readonly secrets: SecretBox;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
  ) {
    super();
    this.secrets = new SecretBox(config.APP_SECRET);
  }

  /** As an `OutboxSink`: one pending delivery per active subscription of each event's topic, in the emitting transaction. */
  record(events: string): string {
    return this.repo.deliveriesOf(events);
  }

  /** Oldest first; cursored. */
  async list(ctx: RequestContext, page: PageRequest, filter: { topic?: string } = {}): Promise<Page<WebhookDto>> {
    const rows = await this.repo.page(ctx, page, filter.topic);
    return rows.map(mapWebhook);
  }

  async get(ctx: RequestContext, id: string): Promise<WebhookDto> {
    return mapWebhook(await this.find(ctx, id));
  }

  find(ctx: RequestContext, id: string, lock = false): Promise<WebhookSubscription> {
    return this.repo.getOrThrow(ctx, id, lock);
  }

  /** The secret is generated here and returned only by this call. */
  async create(ctx: RequestContext, dto: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const topic = checkedTopic(dto.topic);
    const address = await this.reachableAddress(checkedAddress(dto.address));
    const secret = newWebhookSecret();
    try {
      const saved = await this.repo.save(
        ctx,
        this.repo.build(ctx, {
          tenantId: ctx.tenantId,
          topic,
          address,
          secretBox: this.secrets.seal(secret),
          isActive: dto.is_active ?? true,
          failingSince: null,
        }),
      );
      return { ...mapWebhook(saved), secret };
    } catch (err) {
      if (isUniqueViolation(err)) throw ADDRESS_TAKEN;
      throw err;
    }
  }

  async update(ctx: RequestContext, id: string, dto: UpdateWebhookDto): Promise<WebhookDto> {
    const address = dto.address !== undefined ? await this.reachableAddress(checkedAddress(dto.address)) : undefined;
    try {
      return await this.repo.transaction(ctx, async (tx) => {
        const s = await this.find(tx, id, true);
        if (dto.topic !== undefined) s.topic = checkedTopic(dto.topic);
        if (address !== undefined) s.address = address;
        if (dto.is_active !== undefined) {
          if (dto.is_active === null) throw AppError.unprocessable('is_active must be a boolean');
          if (dto.is_active && !s.isActive) s.failingSince = null;
          if (!dto.is_active && s.isActive) await this.dropPending(tx.manager!, s.id, 'subscription deactivated');
          s.isActive = dto.is_active;
        }
        return mapWebhook(await this.repo.save(tx, s));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw ADDRESS_TAKEN;
      throw err;
    }
  }

  /**
   * 422 for an address whose host is, or resolves to, an internal address (SSRF): loopback, private, link-local,
   * CGNAT, unique-local, unspecified. WEBHOOK_ALLOW_PRIVATE_TARGETS=on allows them. Delivery checks again.
   */
  private async reachableAddress(address: string): Promise<string> {
    if (this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS) return address;
    let resolved: { address: string }[];
    try {
      resolved = await resolveAll(new URL(address).hostname);
    } catch {
      return address; // not resolvable yet: delivery resolves and checks again
    }
    if (resolved.some((a) => isBlockedAddress(a.address))) {
      throw AppError.unprocessable(
        'address: the host is or resolves to a loopback, private, link-local or otherwise internal address, which webhooks may not reach',
        'webhook_address_not_allowed',
      );
    }
    return address;
  }

  /** Deletes the subscription with its pending deliveries and its log. */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    if (!(await this.repo.delete(ctx, id))) throw AppError.notFound('webhook');
  }

  /** The subscription's delivery attempts, newest first; cursored. */
  async attempts(ctx: RequestContext, id: string, page: PageRequest): Promise<Page<WebhookDeliveryAttemptDto>> {
    await this.find(ctx, id);
    const rows = await this.repo.attemptsPage(ctx, id, page);
    return rows.map(mapDeliveryAttempt);
  }

  /** Pending deliveries of a subscription that stops receiving are given up. */
  async dropPending(manager: EntityManager, subscriptionId: string, reason: string): Promise<void> {
    await this.repo.dropPending(manager, subscriptionId, reason);
  }
}

function checkedTopic(topic: string | null): string {
  if (!isEventTopic(topic)) throw AppError.unprocessable('topic is not a known event topic');
  return topic;
}

/** An absolute http(s) URL with a host; anything else is 422. */
export function checkedAddress(address: string | null): string {
  if (typeof address !== 'string' || !address.trim()) throw AppError.unprocessable('address must be an http(s) URL');
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw AppError.unprocessable('address must be an http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw AppError.unprocessable('address must be an http(s) URL');
  return address.trim();
}
