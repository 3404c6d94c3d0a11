import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { runExclusive } from '../../common/cluster/exclusive-job.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppConfig } from '../../config/app-config.js';
import { PollingWorker } from '../../events/index.js';
import { OrderLifecycleService } from '../order-lifecycle.service.js';
import { ordersDueForExpiry } from '../repositories/orders.repository.js';

const BATCH = 50;

/**
 * Voids redirect payments not confirmed within PAYMENT_PENDING_TTL_MINUTES (their `payment_expires_at`, set at
 * placement): the order is cancelled with reason `payment_expired`, its stock returned and its single-use code
 * released, the authorization voided, `order.cancelled` emitted. Runs every PAYMENT_EXPIRY_CHECK_MS on one instance
 * at a time (`runExclusive`). Each order is cancelled in a transaction of its own that locks its row and re-checks it,
 * so a payment confirmation holding the row wins and the order ends paid, or the job wins and a late confirmation
 * changes nothing: never both, never neither. One order's failure (logged) leaves the others alone.
 */
@Injectable()
export class PaymentExpiryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PaymentExpiry');
  private readonly worker: PollingWorker;

  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: OrderLifecycleService,
    private readonly adapterHost: HttpAdapterHost,
    config: AppConfig,
  ) {
    this.worker = new PollingWorker('payment expiry', config.PAYMENT_EXPIRY_CHECK_MS, async () => (await this.runOnce()) === BATCH, this.logger);
  }

  /** Starts with the HTTP service (a CLI context leaves the work to the server). */
  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** One round: expires up to 50 orders; returns how many were cancelled (0 when another instance holds the job). */
  async runOnce(): Promise<number> {
    const { result } = await runExclusive(this.dataSource, 'orders.payment-expiry', async (manager) => {
      const due = await ordersDueForExpiry(manager, BATCH);
      let cancelled = 0;
      // one transaction per order (locks in the order placement takes them), while this one holds the job's lock
      for (const row of due) {
        try {
          if (await this.expire(row.tenant_id, row.id)) cancelled += 1;
        } catch (err) {
          this.logger.error(`order ${row.id}: ${(err as Error).message}`);
        }
      }
      return cancelled;
    });
    return result ?? 0;
  }

  /** Cancels the order unless, under its row lock, it turns out paid or cancelled meanwhile. */
  private expire(tenantId: string, id: string): Promise<boolean> {
    return this.lifecycle.run(RequestContext.forTenant(tenantId, 'payment-expiry'), async (tx) => {
      const order = await this.lifecycle.lock(tx, id);
      if (order.cancelledAt || order.financialStatus !== 'pending' || !order.paymentExpiresAt || order.paymentExpiresAt.getTime() > Date.now()) return false;
      await this.lifecycle.cancelLocked(tx, order, { reason: 'payment_expired', restock: true, refund: true, note: null });
      return true;
    });
  }
}
