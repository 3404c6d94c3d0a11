import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction, managerOf, PollingWorker, runExclusive } from 'vinoshop-commerce';
import type { RequestContext } from 'vinoshop-commerce';

export const WINE_CLUB_OPTIONS = Symbol('WineClubOptions');

export interface WineClubOptions {
  /** How often the allocation job checks for members without this month's allocation (ms; 0 = never, run it on demand). */
  allocationCheckMs: number;
}

/** `YYYY-MM` of a date (UTC). */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/**
 * The monthly allocation: every member gets one allocation per month (`bottles` = their `bottles_per_month`), once
 * (unique per member and month, so a re-run or a second instance adds nothing). Only members who joined before the
 * month ended are allocated. Scheduled like the service's maintenance jobs: a `PollingWorker` on the HTTP server,
 * each round under `runExclusive`, so of many instances one allocates at a time. `runOnce()` runs it now (tests,
 * operators); `runForShop()` is the admin endpoint's run for one shop.
 */
@Injectable()
export class WineClubAllocationJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WineClubAllocation');
  private readonly worker: PollingWorker | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(WINE_CLUB_OPTIONS) options: WineClubOptions,
  ) {
    this.worker =
      options.allocationCheckMs > 0
        ? new PollingWorker('wine club allocation', options.allocationCheckMs, async () => (await this.runOnce(), false), this.logger)
        : null;
  }

  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter) this.worker?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  /** Every shop's allocations of `now`'s month; returns how many were made (0 when another instance holds the job). */
  async runOnce(now = new Date()): Promise<number> {
    const { result } = await runExclusive(this.dataSource, 'wine-club.allocation', (m) => this.allocate(m, monthOf(now), null));
    return result ?? 0;
  }

  /** One shop's allocations of a month. */
  runForShop(ctx: RequestContext, month: string): Promise<number> {
    return inTransaction(ctx, this.dataSource, (tx) => this.allocate(managerOf(tx, this.dataSource), month, tx.tenantId));
  }

  private async allocate(m: EntityManager, month: string, tenantId: string | null): Promise<number> {
    const rows = (await m.query(
      `INSERT INTO wine_club_allocations (tenant_id, customer_id, month, bottles)
       SELECT w.tenant_id, w.customer_id, $1, w.bottles_per_month FROM wine_club_members w
        WHERE ($2::uuid IS NULL OR w.tenant_id = $2) AND w.created_at < (($1 || '-01')::date + interval '1 month')
       ON CONFLICT (tenant_id, customer_id, month) DO NOTHING
       RETURNING id`,
      [month, tenantId],
    )) as unknown[];
    if (rows.length) this.logger.log(`${rows.length} wine club allocations for ${month}`);
    return rows.length;
  }
}
