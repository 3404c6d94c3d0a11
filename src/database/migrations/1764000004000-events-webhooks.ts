import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Domain events and webhooks (issue 9): the transactional outbox (`outbox_events`), in-process handler work
 * (`event_handler_jobs`), webhook subscriptions, their deliveries (one per event and subscription) and the log of
 * delivery attempts. The workers' "due work" indexes are partial and cross-tenant (the workers serve every tenant);
 * every index serving a tenant's own query starts with tenant_id.
 */
export class EventsWebhooks1764000004000 implements MigrationInterface {
  name = 'EventsWebhooks1764000004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        topic text NOT NULL,
        payload jsonb NOT NULL,
        occurred_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX outbox_events_tenant_occurred_idx ON outbox_events (tenant_id, occurred_at, id)`);

    await q.query(`
      CREATE TABLE event_handler_jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES outbox_events(id) ON DELETE CASCADE,
        handler text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        last_error text,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3),
        CONSTRAINT event_handler_jobs_event_handler_key UNIQUE (event_id, handler)
      )`);
    await q.query(`CREATE INDEX event_handler_jobs_due_idx ON event_handler_jobs (next_attempt_at) WHERE status = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        topic text NOT NULL,
        address text NOT NULL,
        secret_box bytea NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        failing_since timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX webhook_subscriptions_tenant_topic_address_key ON webhook_subscriptions (tenant_id, topic, address)`);
    await q.query(`CREATE INDEX webhook_subscriptions_tenant_created_idx ON webhook_subscriptions (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES outbox_events(id) ON DELETE CASCADE,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
        topic text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        last_status_code integer,
        last_error text,
        delivered_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3),
        CONSTRAINT webhook_deliveries_event_subscription_key UNIQUE (event_id, subscription_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_subscription_pending_idx ON webhook_deliveries (subscription_id) WHERE status = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        topic text NOT NULL,
        attempt integer NOT NULL,
        status_code integer,
        error text,
        duration_ms integer NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3),
        CONSTRAINT webhook_delivery_attempts_delivery_attempt_key UNIQUE (delivery_id, attempt)
      )`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_tenant_subscription_idx ON webhook_delivery_attempts (tenant_id, subscription_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_delivery_attempts`);
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_subscriptions`);
    await q.query(`DROP TABLE IF EXISTS event_handler_jobs`);
    await q.query(`DROP TABLE IF EXISTS outbox_events`);
  }
}
