import { describe, expect, it } from '@jest/globals';
import { outboxStatement, timeOrderedUuid, type PendingEvent } from './outbox-statement.js';

const event = (id: string, handlers: string[] = []): PendingEvent => ({
  id,
  tenantId: 't',
  topic: 'order.placed',
  payload: '{}',
  trace: null,
  handlers,
  depth: 1,
});

describe('outbox statement (issue 34)', () => {
  it('time-ordered ids sort in the order they were made, within one millisecond and across', () => {
    const ids = [timeOrderedUuid(1_000), timeOrderedUuid(1_000), timeOrderedUuid(1_000), timeOrderedUuid(999), timeOrderedUuid(1_002)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes every event, its handlers’ jobs and each sink’s statement in one WITH statement', () => {
    const { sql, parameters } = outboxStatement([event('a', ['h1', 'h2']), event('b'), event('c', ['h1'])], ['INSERT INTO x SELECT id FROM ev']);
    expect(sql.match(/INSERT INTO/g)).toHaveLength(3);
    expect(sql).toMatch(/sink0 AS \(INSERT INTO x SELECT id FROM ev RETURNING 1\)/);
    expect(sql).toMatch(/\(SELECT count\(\*\) FROM sink0\)\)::int AS sink_rows FROM written$/);
    expect(parameters[0]).toEqual(['a', 'b', 'c']);
    expect(parameters.slice(5)).toEqual([
      ['a', 'a', 'c'],
      ['h1', 'h2', 'h1'],
    ]);
  });

  it('leaves the jobs out when no handler listens', () => {
    const { sql, parameters } = outboxStatement([event('a')], []);
    expect(sql).not.toMatch(/event_handler_jobs/);
    expect(parameters).toHaveLength(5);
  });
});
