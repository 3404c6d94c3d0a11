import type { EntityManager } from 'typeorm';

/** Pending work of a queue table: how many rows, the oldest one's age, and how far past due the earliest one is. */
export interface QueueBacklog {
  pending: number;
  oldestAgeSeconds: number;
  overdueSeconds: number;
}

/**
 * The backlog of a queue table with `status`, `created_at` and `next_attempt_at` columns (its `'pending'` rows).
 * Each owner measures its own table (events: `event_handler_jobs`, webhooks: `webhook_deliveries`).
 */
export async function queueBacklog(m: EntityManager, table: string): Promise<QueueBacklog> {
  const [row] = (await m.query(
    `SELECT count(*)::int AS pending, coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0)::float8 AS age,
            coalesce(extract(epoch FROM clock_timestamp() - min(next_attempt_at)), 0)::float8 AS overdue
       FROM ${table} WHERE status = 'pending'`,
  )) as Array<{ pending: number; age: number; overdue: number }>;
  return { pending: Number(row.pending), oldestAgeSeconds: Math.max(0, Number(row.age)), overdueSeconds: Math.max(0, Number(row.overdue)) };
}
