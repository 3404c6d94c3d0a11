import { MigrationInterface, QueryRunner } from 'typeorm';

/** Customer groups (issue 32): named sets of customers, for the `customer_group` promotion condition. */
export class CustomerGroups1795699692019 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customer_groups (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX customer_groups_tenant_name_key ON customer_groups (tenant_id, lower(name))`);
    await q.query(`CREATE INDEX customer_groups_tenant_created_idx ON customer_groups (tenant_id, created_at, id)`);
    await q.query(`
      CREATE TABLE customer_group_members (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        group_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, group_id) REFERENCES customer_groups (tenant_id, id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX customer_group_members_key ON customer_group_members (tenant_id, group_id, customer_id)`);
    await q.query(`CREATE INDEX customer_group_members_customer_idx ON customer_group_members (tenant_id, customer_id)`);
    await q.query(`CREATE INDEX customer_group_members_created_idx ON customer_group_members (tenant_id, group_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE customer_group_members`);
    await q.query(`DROP TABLE customer_groups`);
  }
}
