import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { SlowQueryLogger, type SlowQuery } from './slow-query-logger.js';

describe('SlowQueryLogger', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new Logger()));

  it('tells every subscriber about a slow query (duration and statement name, never values) until it unsubscribes', () => {
    const logger = new SlowQueryLogger();
    const seen: SlowQuery[] = [];
    const unsubscribe = logger.subscribe((q) => seen.push(q));
    logger.logQuerySlow(151.6, "SELECT pg_sleep($1), 'secret'::text");
    expect(seen).toEqual([{ duration_ms: 152, statement: "SELECT pg_sleep($1), '?'::text", statement_id: expect.stringMatching(/^[0-9a-f]{12}$/) }]);
    unsubscribe();
    logger.logQuerySlow(200, 'SELECT 1');
    expect(seen).toHaveLength(1);
  });

  it('is found on the data source it was built with, and only there', () => {
    const logger = new SlowQueryLogger();
    expect(SlowQueryLogger.of({ logger } as unknown as DataSource)).toBe(logger);
    expect(SlowQueryLogger.of({ logger: { logQuery() {} } } as unknown as DataSource)).toBeNull();
  });
});
