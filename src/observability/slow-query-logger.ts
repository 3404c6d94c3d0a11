import { Logger as NestLogger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';

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

/** One query slower than SLOW_QUERY_MS, as logged: its duration and its statement's name (never its values). */
export interface SlowQuery {
  duration_ms: number;
  statement: string;
  statement_id: string;
}

/**
 * TypeORM's logger: silent except one `slow query` warning per query slower than SLOW_QUERY_MS (TypeORM's
 * `maxQueryExecutionTime`), naming the statement and its duration, never its parameters.
 *
 * It is built with the data source (outside Nest, see `database/data-source.ts`) and owns its slow-query hook: whoever
 * wants to know about slow queries (the metrics) subscribes through `subscribe` and unsubscribes when done; the logger
 * never holds a slot another module fills in.
 */
export class SlowQueryLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('SlowQuery');
  private readonly listeners = new Set<(query: SlowQuery) => void>();

  /** The data source's slow-query logger, or null when it was built with another logger. */
  static of(dataSource: DataSource): SlowQueryLogger | null {
    const logger: unknown = dataSource.logger;
    return logger instanceof SlowQueryLogger ? logger : null;
  }

  /** Calls `listener` for every slow query from now on; returns the function that unsubscribes it. */
  subscribe(listener: (query: SlowQuery) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  logQuerySlow(time: number, query: string): void {
    const slow: SlowQuery = { duration_ms: Math.round(time), ...statementName(query) };
    this.logger.warn({ msg: 'slow query', ...slow });
    for (const listener of this.listeners) listener(slow);
  }
  logQuery(): void {}
  logQueryError(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
