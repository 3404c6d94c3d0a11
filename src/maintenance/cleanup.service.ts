import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { runExclusive } from '../common/cluster/exclusive-job.js';
import type { CleanupSweep } from '../common/db/sweep.js';
import { CleanupSweeps, Extensions } from '../extensions/index.js';
import { AppConfig } from '../config/app-config.js';
import { deleteSweepBatch } from './maintenance.repository.js';

/**
 * Periodic cleanup (issue 13): expired shopper tokens and one-time codes, idempotency keys (24 h), delivered outbox
 * events and webhook attempts (30 days), anonymous carts untouched for 90 days. Ages and the interval come from
 * AppConfig (`CLEANUP_*`); each batch runs under `runExclusive`, so of many instances one sweeps at a time.
 */
@Injectable()
export class CleanupService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Cleanup');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly extensions: Extensions,
  ) {}

  /**
   * What the service stops needing, removed in bounded batches: the `CleanupSweeps` each module owning a table
   * declares (indexes of migration 1764000113000 serve them), in module order; read when a round starts.
   */
  sweeps(): CleanupSweep[] {
    return this.extensions.all(CleanupSweeps).flatMap((s) => s.sweeps);
  }

  onApplicationBootstrap(): void {
    if (this.config.CLEANUP_INTERVAL_MS <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((err: unknown) => this.logger.warn(`cleanup failed: ${(err as Error).message}`))
        .finally(() => (this.running = null));
    }, this.config.CLEANUP_INTERVAL_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One full round: every sweep, batch after batch until a batch comes back short. Rows deleted per sweep. */
  async runOnce(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const sweep of this.sweeps()) {
      deleted[sweep.name] = 0;
      for (;;) {
        const { ran, result } = await runExclusive(this.dataSource, `cleanup:${sweep.name}`, (m) => this.batch(m, sweep));
        if (!ran || result === undefined) break;
        deleted[sweep.name] += result;
        if (result < this.config.CLEANUP_BATCH_SIZE) break;
      }
    }
    return deleted;
  }

  private batch(manager: EntityManager, sweep: CleanupSweep): Promise<number> {
    return deleteSweepBatch(manager, sweep, this.config, this.config.CLEANUP_BATCH_SIZE);
  }
}
