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
  /**
   * A JSON path in the payload (`['order', 'number']`) that the statement writing the event sets to a value it computes
   * (`OutboxParts`' `fillValue`: the order placement's number, written by the placement's own statement); null: none.
   */
  fill?: string[] | null;
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

/** The outbox's `WITH` parts of a caller's statement (issue 34), and its parameters, numbered after the caller's. */
export interface OutboxParts {
  /** `ev AS (…), written AS (…)[, jobs AS (…)][, sinkN AS (…)]`: the caller's `WITH` lists them after its own parts. */
  ctes: string;
  parameters: unknown[];
  /** Handler jobs are written (an event has a handler). */
  jobs: boolean;
  /** A SQL expression of the statement: how many rows the sinks wrote (`0` without sinks). */
  sinkRows: string;
}

/**
 * The parts writing a transaction's events (in emit order), their handlers' jobs and every sink's work, each sink's
 * statement reading the events from the relation `ev` (id, tenant_id, topic); `written` returns each event's id and
 * `occurred_at`. Parameters are numbered from `$offset + 1`. An event's `fill` path is set to `fillValue`, a SQL
 * expression of the statement these parts run in (an event with a `fill` and no `fillValue` is refused).
 */
export function outboxParts(
  events: PendingEvent[],
  sinks: string[],
  { offset = 0, fillValue = null }: { offset?: number; fillValue?: string | null } = {},
): OutboxParts {
  const fills = events.map((e) => (e.fill?.length ? `{${e.fill.join(',')}}` : null));
  if (fillValue === null && fills.some((f) => f !== null)) throw new Error('an event with a fill path needs the value of the statement writing it');
  const jobs = events.flatMap((e) => e.handlers.map((h) => ({ event: e.id, handler: h })));
  const $ = (i: number) => `$${offset + i}`;
  const payload =
    fillValue === null
      ? 'x.payload'
      : `CASE WHEN x.fill IS NULL THEN x.payload ELSE jsonb_set(x.payload, x.fill::text[], to_jsonb(${fillValue})) END AS payload`;
  const ctes = [
    `ev AS (
       SELECT x.id, x.tenant_id, x.topic, ${payload}, x.trace_context, x.n
         FROM unnest(${$(1)}::uuid[], ${$(2)}::uuid[], ${$(3)}::text[], ${$(4)}::jsonb[], ${$(5)}::jsonb[]${fillValue === null ? '' : `, ${$(6)}::text[]`}) WITH ORDINALITY AS x(id, tenant_id, topic, payload, trace_context${fillValue === null ? '' : ', fill'}, n)),
     written AS (
       INSERT INTO outbox_events (id, tenant_id, topic, payload, trace_context)
       SELECT id, tenant_id, topic, payload, trace_context FROM ev ORDER BY n RETURNING id, occurred_at)`,
    ...(jobs.length > 0
      ? [
          `jobs AS (
             INSERT INTO event_handler_jobs (tenant_id, event_id, handler, next_attempt_at)
             SELECT ev.tenant_id, ev.id, j.handler, clock_timestamp() FROM unnest(${$(fillValue === null ? 6 : 7)}::uuid[], ${$(fillValue === null ? 7 : 8)}::text[]) AS j(event_id, handler) JOIN ev ON ev.id = j.event_id
             ON CONFLICT (tenant_id, event_id, handler) DO NOTHING)`,
        ]
      : []),
    ...sinks.map((s, i) => `sink${i} AS (${s} RETURNING 1)`),
  ].join(',\n');
  const parameters: unknown[] = [
    events.map((e) => e.id),
    events.map((e) => e.tenantId),
    events.map((e) => e.topic),
    events.map((e) => e.payload),
    events.map((e) => e.trace),
  ];
  if (fillValue !== null) parameters.push(fills);
  if (jobs.length > 0)
    parameters.push(
      jobs.map((j) => j.event),
      jobs.map((j) => j.handler),
    );
  const sinkRows = sinks.length ? `(${sinks.map((_, i) => `(SELECT count(*) FROM sink${i})`).join(' + ')})` : '0';
  return { ctes, parameters, jobs: jobs.length > 0, sinkRows };
}

/**
 * ONE statement writing a transaction's events, their handlers' jobs and every sink's work (`outboxParts`).
 * Data-modifying WITH parts run once and to completion whether or not the final SELECT reads them; foreign keys are
 * checked at its end.
 */
export function outboxStatement(events: PendingEvent[], sinks: string[]): { sql: string; parameters: unknown[]; jobs: boolean } {
  const { ctes, parameters, jobs, sinkRows } = outboxParts(events, sinks);
  return { sql: `WITH ${ctes}\nSELECT id, occurred_at, ${sinkRows}::int AS sink_rows FROM written`, parameters, jobs };
}
