import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { TransactionListener } from '../extensions/index.js';

/**
 * The shops whose limited promotions a transaction used (`PromotionEvaluation.redeem`), by the transaction's query
 * runner; their promotions cache is dropped again once it commits (`PromotionUsageCommits`). Dropping it inside the
 * transaction alone left a window: a cart read between that drop and the commit reloaded the promotions as they were
 * (the use not yet visible) and kept them 30 s, so a used-up promotion still showed.
 */
const pending = new WeakMap<QueryRunner, Set<string>>();

/** Marks `tenantId`'s promotions to be reloaded after the transaction of `runner` commits. */
export function invalidateAfterCommit(runner: QueryRunner | undefined, tenantId: string): boolean {
  if (!runner?.isTransactionActive) return false;
  let set = pending.get(runner);
  if (!set) pending.set(runner, (set = new Set()));
  set.add(tenantId);
  return true;
}

/** The after-commit half of the promotions cache's invalidation on a completion, as a `TransactionListener`. */
@Injectable()
export class PromotionUsageCommits extends TransactionListener {
  private invalidate: ((tenantId: string) => void) | null = null;

  /** Set by `PromotionEvaluation` (which owns the cache) at construction. */
  bind(invalidate: (tenantId: string) => void): void {
    this.invalidate = invalidate;
  }

  override afterTransactionCommit(runner: QueryRunner): void {
    // a released savepoint calls this with the transaction still open: only the outermost commit counts
    if (runner.isTransactionActive) return;
    const set = pending.get(runner);
    if (!set) return;
    pending.delete(runner);
    for (const tenantId of set) this.invalidate?.(tenantId);
  }

  override afterTransactionRollback(runner: QueryRunner): void {
    if (!runner.isTransactionActive) pending.delete(runner);
  }
}
