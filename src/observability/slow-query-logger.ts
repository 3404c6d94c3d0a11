import { Logger as NestLogger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * The statement's name for the log: its SQL text (placeholders, never the bound values) with whitespace collapsed and
 * quoted literals blanked, cut to 200 characters, plus a short hash that groups the same statement across lines.
 */
export function statementName(sql: string): { statement: string; statement_id: string } {
  const text = sql
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\s+/g, ' ')
    .trim();
  return { statement: text.length > 200 ? `${text.slice(0, 200)}…` : text, statement_id: createHash('sha1').update(text).digest('hex').slice(0, 12) };
}

/**
 * TypeORM's logger: silent except one `slow query` warning per query slower than SLOW_QUERY_MS (TypeORM's
 * `maxQueryExecutionTime`), naming the statement and its duration, never its parameters.
 */
export class SlowQueryLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('SlowQuery');
  /** Set by Metrics to count slow queries. */
  onSlow: (() => void) | null = null;

  logQuerySlow(time: number, query: string): void {
    this.onSlow?.();
    this.logger.warn({ msg: 'slow query', duration_ms: Math.round(time), ...statementName(query) });
  }
  logQuery(): void {}
  logQueryError(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
