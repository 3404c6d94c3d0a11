import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 (security):
 * - token lookups by hash are one indexed lookup again: the tenant-keys migration made the hash keys
 *   `(tenant_id, token_hash)` while a token names its tenant only through its hash, so each table gets a plain
 *   index on `token_hash` (not unique: uniqueness stays per tenant, as tenant-keys decided);
 * - the cleanup jobs read cross-tenant by age, like the workers' due-work indexes: one index per sweep.
 */
export class Security1764000113000 implements MigrationInterface {
  name = 'Security1764000113000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX access_tokens_token_hash_idx ON access_tokens (token_hash)`);
    await q.query(`CREATE INDEX customer_tokens_token_hash_idx ON customer_tokens (token_hash)`);
    await q.query(`CREATE INDEX customer_one_time_tokens_token_hash_idx ON customer_one_time_tokens (token_hash)`);

    await q.query(`CREATE INDEX customer_tokens_expires_idx ON customer_tokens (expires_at)`);
    await q.query(`CREATE INDEX customer_one_time_tokens_expires_idx ON customer_one_time_tokens (expires_at)`);
    await q.query(`CREATE INDEX outbox_events_occurred_idx ON outbox_events (occurred_at)`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_created_idx ON webhook_delivery_attempts (created_at)`);
    await q.query(`CREATE INDEX carts_anonymous_touched_idx ON carts ((coalesce(updated_at, created_at))) WHERE customer_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of [
      'carts_anonymous_touched_idx',
      'webhook_delivery_attempts_created_idx',
      'outbox_events_occurred_idx',
      'customer_one_time_tokens_expires_idx',
      'customer_tokens_expires_idx',
      'customer_one_time_tokens_token_hash_idx',
      'customer_tokens_token_hash_idx',
      'access_tokens_token_hash_idx',
    ]) {
      await q.query(`DROP INDEX IF EXISTS ${name}`);
    }
  }
}
