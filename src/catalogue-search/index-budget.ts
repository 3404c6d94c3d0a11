import { HttpStatus } from '@nestjs/common';
import { AppError } from '../common/http/app-error.js';
import type { IndexRowCounts } from './catalogue-index.source.js';

/**
 * A lower bound of `TenantIndex.bytes()` from the rows a build would read: per product and per variant its id (string
 * and map entry) and its typed-array columns, plus the title and SKU characters. A build reserves it before reading
 * anything, so an index being built counts in `CATALOGUE_INDEX_MEMORY_MB` from its first row.
 */
export function estimateIndexBytes(c: IndexRowCounts): number {
  const PER_PRODUCT = 96 + 64 + 16;
  const PER_VARIANT = 96 + 64 + 56;
  return c.products * PER_PRODUCT + c.variants * PER_VARIANT + c.textChars;
}

/** How long a tenant found too large is refused before its size is counted again (a catalogue may shrink). */
const RECOUNT_MS = 30_000;

/**
 * Tenants whose index alone cannot fit `CATALOGUE_INDEX_MEMORY_MB` (by estimate before a build, or by size after one):
 * no index of theirs is kept, so they can never evict the other tenants; their catalogue reads are 503 with
 * `Retry-After` (`catalogue_over_memory_budget`) until a recount finds the index fits.
 */
export class OverBudgetTenants {
  private readonly found = new Map<string, { bytes: number; until: number }>();
  /** Catalogue reads refused since start (the metric `catalogue_index_over_budget_refusals`). */
  refusals = 0;

  constructor(private readonly recountMs = RECOUNT_MS) {}

  /** Remembers the tenant as too large and returns the refusal for the read that found it. */
  mark(tenantId: string, bytes: number, budget: number): AppError {
    this.found.set(tenantId, { bytes, until: Date.now() + this.recountMs });
    return this.refusal(bytes, budget);
  }

  /** Throws the refusal while the tenant is known too large; after `recountMs` it may be counted again. */
  check(tenantId: string, budget: number): void {
    const f = this.found.get(tenantId);
    if (!f) return;
    if (f.until <= Date.now()) {
      this.found.delete(tenantId);
      return;
    }
    throw this.refusal(f.bytes, budget);
  }

  /** Counts the tenant again on its next read (tests; a shop that shrank, when waiting for the recount will not do). */
  forget(tenantId: string): void {
    this.found.delete(tenantId);
  }

  private refusal(bytes: number, budget: number): AppError {
    this.refusals += 1;
    return new AppError(
      HttpStatus.SERVICE_UNAVAILABLE,
      `this shop's catalogue (about ${Math.ceil(bytes / 1048576)} MB indexed) does not fit CATALOGUE_INDEX_MEMORY_MB (${Math.round(budget / 1048576)} MB)`,
      'catalogue_over_memory_budget',
      { 'Retry-After': String(Math.ceil(this.recountMs / 1000)) },
    );
  }
}
