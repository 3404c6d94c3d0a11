import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../common/http/app-error.js';

/** Seconds a refused export is told to wait. */
const RETRY_AFTER_SECONDS = 5;

/**
 * At most `limit` exports per shop at once on this instance (`EXPORT_CONCURRENCY_PER_TENANT`): one more is 429 with
 * `Retry-After`. A slot is held from the snapshot read until the last byte is sent (or the send is aborted).
 */
export class ExportSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Takes a slot for the shop, or throws 429; the returned function gives it back (once). */
  take(tenantId: string): () => void {
    const now = this.running.get(tenantId) ?? 0;
    if (now >= this.limit)
      throw new AppError(
        HttpStatus.TOO_MANY_REQUESTS,
        `this shop already runs ${this.limit} exports (EXPORT_CONCURRENCY_PER_TENANT): retry when one is done`,
        'export_concurrency_limit',
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    this.running.set(tenantId, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(tenantId) ?? 1) - 1;
      if (left > 0) this.running.set(tenantId, left);
      else this.running.delete(tenantId);
    };
  }

  /** Exports of the shop running now (tests, diagnostics). */
  runningFor(tenantId: string): number {
    return this.running.get(tenantId) ?? 0;
  }
}
