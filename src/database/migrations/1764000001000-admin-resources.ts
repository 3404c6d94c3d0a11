import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin resources (issue 3): collections, customers with their addresses, content pages, blog articles, discount codes.
 * `updated_at` has no default: it stays null until the first update.
 */
export class AdminResources1764000001000 implements MigrationInterface {
  name = 'AdminResources1764000001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE collections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        handle text NOT NULL,
        title jsonb NOT NULL DEFAULT '{}',
        body_html jsonb NOT NULL DEFAULT '{}',
        collection_type text NOT NULL DEFAULT 'manual' CHECK (collection_type IN ('manual', 'smart')),
        published boolean NOT NULL DEFAULT true,
        sort_order text,
        template_name text,
        rules_json text,
        meta_title text,
        meta_description text,
        image_src text,
        image_alt text,
        image_width integer,
        image_height integer,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX collections_tenant_handle_key ON collections (tenant_id, lower(handle))`);
    await q.query(`CREATE INDEX collections_tenant_created_idx ON collections (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE customers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        email text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        is_email_confirmed boolean NOT NULL DEFAULT false,
        type text NOT NULL DEFAULT 'customer' CHECK (type IN ('customer', 'corporate', 'reseller')),
        currency_id uuid REFERENCES currencies(id) ON DELETE SET NULL,
        default_address_id uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX customers_tenant_email_key ON customers (tenant_id, lower(email))`);
    await q.query(`CREATE INDEX customers_tenant_created_idx ON customers (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE customer_addresses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        title_id uuid,
        first_name text,
        last_name text,
        company text,
        department text,
        street text,
        house_number text,
        zip_code text,
        location text,
        country_id uuid REFERENCES countries(id) ON DELETE SET NULL,
        phone_number text,
        mobile_number text,
        fax_number text,
        email text,
        website text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE INDEX customer_addresses_tenant_customer_idx ON customer_addresses (tenant_id, customer_id, created_at, id)`);
    await q.query(
      `ALTER TABLE customers ADD CONSTRAINT customers_default_address_fk FOREIGN KEY (default_address_id) REFERENCES customer_addresses(id) ON DELETE SET NULL`,
    );

    await q.query(`
      CREATE TABLE content_pages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        handle text NOT NULL,
        title jsonb NOT NULL DEFAULT '{}',
        body_html jsonb NOT NULL DEFAULT '{}',
        meta_description jsonb NOT NULL DEFAULT '{}',
        meta_keywords jsonb NOT NULL DEFAULT '{}',
        menu_title jsonb NOT NULL DEFAULT '{}',
        published boolean NOT NULL DEFAULT true,
        template text,
        type text NOT NULL DEFAULT 'common' CHECK (type IN ('common', 'liquid')),
        show_in_header boolean NOT NULL DEFAULT false,
        show_in_footer boolean NOT NULL DEFAULT false,
        sort_order integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE UNIQUE INDEX content_pages_tenant_handle_key ON content_pages (tenant_id, lower(handle))`);
    await q.query(`CREATE INDEX content_pages_tenant_created_idx ON content_pages (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE blog_articles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        title jsonb NOT NULL DEFAULT '{}',
        summary_html jsonb NOT NULL DEFAULT '{}',
        body_html jsonb NOT NULL DEFAULT '{}',
        published boolean NOT NULL DEFAULT true,
        image_src text,
        image_alt text,
        image_width integer,
        image_height integer,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3)
      )`);
    await q.query(`CREATE INDEX blog_articles_tenant_created_idx ON blog_articles (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE discount_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        code text NOT NULL,
        type text NOT NULL DEFAULT 'value' CHECK (type IN ('value', 'percent')),
        value numeric(18,4) NOT NULL CHECK (value > 0),
        is_active boolean NOT NULL DEFAULT true,
        is_used boolean NOT NULL DEFAULT false,
        is_infinite boolean NOT NULL DEFAULT false,
        using_date timestamptz(3),
        currency_id uuid REFERENCES currencies(id) ON DELETE SET NULL,
        expiry_date timestamptz(3),
        min_value numeric(18,4) NOT NULL DEFAULT 0 CHECK (min_value >= 0),
        is_check_all_products_for_category boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        CHECK (type <> 'percent' OR value <= 100)
      )`);
    await q.query(`CREATE UNIQUE INDEX discount_codes_tenant_code_key ON discount_codes (tenant_id, code)`);
    await q.query(`CREATE INDEX discount_codes_tenant_created_idx ON discount_codes (tenant_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE discount_codes`);
    await q.query(`DROP TABLE blog_articles`);
    await q.query(`DROP TABLE content_pages`);
    await q.query(`ALTER TABLE customers DROP CONSTRAINT customers_default_address_fk`);
    await q.query(`DROP TABLE customer_addresses`);
    await q.query(`DROP TABLE customers`);
    await q.query(`DROP TABLE collections`);
  }
}
