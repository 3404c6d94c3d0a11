import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { SkipRateLimit } from '../common/auth/rate-limit.js';
import { EventHandlerWorker } from '../events/index.js';
import { Metrics } from '../observability/index.js';
import { WebhookDeliveryWorker } from '../webhooks/index.js';

/** A due outbox item waiting longer than this means the workers do not keep up: the member is degraded. */
const OUTBOX_OVERDUE_S = 60;
/** A catalogue index further behind the committed changes than this is degraded. */
const INDEX_LAG_MS = 10_000;

const MEMBER = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['up', 'degraded', 'down'] } },
  additionalProperties: true,
};
/** Terminus' result plus this service's members and the `degraded` list. */
const READY_SCHEMA = {
  type: 'object',
  required: ['status', 'details', 'degraded'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'] },
    info: { type: 'object', additionalProperties: MEMBER },
    error: { type: 'object', additionalProperties: MEMBER },
    details: { type: 'object', additionalProperties: MEMBER, properties: { database: MEMBER, catalogue_index: MEMBER, outbox_worker: MEMBER } },
    degraded: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: false,
};

interface Member {
  status: 'up' | 'degraded' | 'down';
  [k: string]: unknown;
}

@ApiTags('health')
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly metrics: Metrics,
    private readonly handlers: EventHandlerWorker,
    private readonly webhooks: WebhookDeliveryWorker,
  ) {}

  /** Liveness: the process answers. */
  @Get()
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } })
  live(): { status: string } {
    return { status: 'ok' };
  }

  /**
   * Readiness: 200 when the database answers, else 503. The catalogue index and the outbox workers are reported
   * beside it; a degraded one is listed under `degraded` without failing readiness.
   */
  @Get('ready')
  @ApiResponse({ status: 200, description: 'Ready: the database answers (members may be degraded).', schema: READY_SCHEMA })
  @ApiResponse({ status: 503, description: 'Not ready: the database does not answer.', schema: READY_SCHEMA })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult & { degraded: string[] }> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as HealthCheckResult;
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
    }
    const members: Record<string, Member> = {
      catalogue_index: this.catalogueIndex(),
      outbox_worker: result.status === 'ok' ? await this.outboxWorker() : { status: 'down', reason: 'database unreachable' },
    };
    const degraded = Object.entries(members)
      .filter(([, m]) => m.status !== 'up')
      .map(([name]) => name);
    return { ...result, details: { ...result.details, ...members }, degraded };
  }

  private catalogueIndex(): Member {
    const s = this.metrics.catalogueIndexStats();
    if (!s) return { status: 'degraded', reason: 'no catalogue index in this process' };
    return { status: s.deltaLagMs > INDEX_LAG_MS ? 'degraded' : 'up', tenants: s.tenants, bytes: s.bytes, rebuilds: s.rebuilds, delta_lag_ms: s.deltaLagMs };
  }

  private async outboxWorker(): Promise<Member> {
    const queues = await this.metrics.outboxBacklog();
    const running = { handlers: this.handlers.running, webhooks: this.webhooks.running };
    const backlog = Object.fromEntries(
      queues.map((q) => [q.queue, { pending: q.pending, oldest_age_seconds: Math.round(q.oldestAgeSeconds), overdue_seconds: Math.round(q.overdueSeconds) }]),
    );
    const reasons: string[] = [];
    for (const [name, on] of Object.entries(running)) if (!on) reasons.push(`${name} worker stopped`);
    for (const q of queues)
      if (q.pending > 0 && q.overdueSeconds > OUTBOX_OVERDUE_S) reasons.push(`${q.queue}: due work waiting ${Math.round(q.overdueSeconds)} s`);
    if (queues.length === 0) reasons.push('backlog unavailable');
    return { status: reasons.length ? 'degraded' : 'up', running, backlog, ...(reasons.length ? { reasons } : {}) };
  }
}
