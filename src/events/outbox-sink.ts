/**
 * **Outbox sink** (several; an extension point gathered by `Extensions` like those of src/extensions/, declared
 * here because src/extensions/ imports nothing above it). Work recorded beside each domain event, in the statement
 * that writes the emitting transaction's events just before it commits: a rolled-back change leaves neither. Built
 * in: the webhooks module's pending deliveries.
 *
 * `record(events)` returns one data-modifying statement (an `INSERT … SELECT`, without `RETURNING`: the outbox appends
 * `RETURNING 1` to count its rows) reading the events being recorded
 * from the relation named `events`, with the columns `id`, `tenant_id` and `topic`; it runs as a part of the
 * outbox's one `WITH` statement (issue 34: no statement per event and sink, no rows when nothing matches). The
 * module owning the table writes the statement, so the events module names no table of another module.
 */
export abstract class OutboxSink {
  abstract record(events: string): string;
}
