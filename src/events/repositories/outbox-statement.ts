import { randomBytes } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

/** An emitted event not yet written: its row, its handlers' names and the transaction depth it was emitted at. */
export interface PendingEvent<R extends { occurredAt: Date } = { occurredAt: Date }> {
  id: string;
  tenantId: string;
  topic: string;
  /** The payload as JSON text. */
  payload: string;
  /** The trace carrier as JSON text; null when not tracing. */
  trace: string | null;
  handlers: string[];
  depth: number;
  /** What `emit` returned: its `occurredAt` becomes the row's once written. */
  recorded?: R;
}

/** The nesting of a query runner's transaction: 1 outermost, more inside savepoints, 0 when none is open. */
export function depthOf(runner: QueryRunner): number {
  return (runner as unknown as { transactionDepth?: number }).transactionDepth ?? (runner.isTransactionActive ? 1 : 0);
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): the millisecond time first, then a 12-bit sequence within the millisecond (monotonic in
 * this process), then random bits. Events recorded in one statement share `occurred_at` to the millisecond; their ids
 * keep the order they were emitted in (the outbox reads by `occurred_at, id`).
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (now <= lastMs) {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
  } else {
    lastMs = now;
    sequence = 0;
  }
  const b = randomBytes(16);
  const ms = lastMs;
  b[0] = Math.floor(ms / 2 ** 40) & 0xff;
  b[1] = Math.floor(ms / 2 ** 32) & 0xff;
  b[2] = (ms >>> 24) & 0xff;
  b[3] = (ms >>> 16) & 0xff;
  b[4] = (ms >>> 8) & 0xff;
  b[5] = ms & 0xff;
  b[6] = 0x70 | (sequence >>> 8);
  b[7] = sequence & 0xff;
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * ONE statement writing a transaction's events (in emit order), their handlers' jobs and every sink's work, each
 * sink's statement reading the events from the relation `ev` (id, tenant_id, topic). Data-modifying WITH parts run
 * once and to completion whether or not the final SELECT reads them; foreign keys are checked at its end.
 */
export function outboxStatement(events: PendingEvent[], sinks: string[]): { sql: string; parameters: unknown[] } {
  const jobs = events.flatMap((e) => e.handlers.map((h) => ({ event: e.id, handler: h })));
  const sql = [
    `WITH ev AS (
       SELECT x.id, x.tenant_id, x.topic, x.payload, x.trace_context, x.n
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS x(id, tenant_id, topic, payload, trace_context, n)),
     written AS (
       INSERT INTO outbox_events (id, tenant_id, topic, payload, trace_context)
       SELECT id, tenant_id, topic, payload, trace_context FROM ev ORDER BY n RETURNING id, occurred_at)`,
    ...(jobs.length > 0
      ? [
          `jobs AS (
             INSERT INTO event_handler_jobs (tenant_id, event_id, handler, next_attempt_at)
             SELECT ev.tenant_id, ev.id, j.handler, clock_timestamp() FROM unnest($6::uuid[], $7::text[]) AS j(event_id, handler) JOIN ev ON ev.id = j.event_id
             ON CONFLICT (tenant_id, event_id, handler) DO NOTHING)`,
        ]
      : []),
    ...sinks.map((s, i) => `sink${i} AS (${s})`),
  ].join(',\n');
  const parameters: unknown[] = [
    events.map((e) => e.id),
    events.map((e) => e.tenantId),
    events.map((e) => e.topic),
    events.map((e) => e.payload),
    events.map((e) => e.trace),
  ];
  if (jobs.length > 0)
    parameters.push(
      jobs.map((j) => j.event),
      jobs.map((j) => j.handler),
    );
  return { sql: `${sql}\nSELECT id, occurred_at FROM written`, parameters };
}
