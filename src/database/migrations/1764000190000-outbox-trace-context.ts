import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tracing (issue 19): the W3C trace context (`traceparent`, `tracestate`) and the request id of the request that
 * recorded an outbox event, so its handlers and webhook deliveries continue that trace. NULL when tracing is off.
 */
export class OutboxTraceContext1764000190000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN trace_context jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events DROP COLUMN trace_context`);
  }
}
