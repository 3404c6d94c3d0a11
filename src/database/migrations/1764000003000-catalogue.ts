import { MigrationInterface, QueryRunner } from 'typeorm';

const base = `
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3)`;

/**
 * The catalogue: products, variants and everything they reference, the stock ledger, the checkout's shipping
 * methods and payment types, collection membership, and `variant_search`, the denormalized row per visible
 * variant that every storefront list, filter and facet query reads.
 */
export class Catalogue1764000003000 implements MigrationInterface {
  name = 'Catalogue1764000003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);

    await q.query(`CREATE TABLE manufacturers (${base}, key text NOT NULL, name text, logo_url text, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX manufacturers_tenant_key_key ON manufacturers (tenant_id, key)`);

    // path: ancestors root first, ending with the category itself
    await q.query(`CREATE TABLE categories (${base}, key text NOT NULL, name jsonb NOT NULL DEFAULT '{}', parent_id uuid REFERENCES categories(id) ON DELETE SET NULL,
      path uuid[] NOT NULL DEFAULT '{}', position int NOT NULL DEFAULT 0, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX categories_tenant_key_key ON categories (tenant_id, key)`);

    await q.query(`CREATE TABLE facet_values (${base}, dimension text NOT NULL CHECK (dimension IN ('colors','regions','sizes','years','countries')),
      key text NOT NULL, name jsonb NOT NULL DEFAULT '{}', position int NOT NULL DEFAULT 0, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX facet_values_tenant_dimension_key_key ON facet_values (tenant_id, dimension, key)`);

    await q.query(
      `CREATE TABLE custom_fields (${base}, key text NOT NULL, label jsonb NOT NULL DEFAULT '{}', type text, position int NOT NULL DEFAULT 0, import_hash text)`,
    );
    await q.query(`CREATE UNIQUE INDEX custom_fields_tenant_key_key ON custom_fields (tenant_id, key)`);
    await q.query(`CREATE TABLE custom_field_options (${base}, field_id uuid NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE, key text NOT NULL,
      name jsonb NOT NULL DEFAULT '{}', value text, position int NOT NULL DEFAULT 0, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX custom_field_options_tenant_key_key ON custom_field_options (tenant_id, key)`);

    await q.query(`CREATE TABLE flags (${base}, key text NOT NULL, name jsonb NOT NULL DEFAULT '{}', color text, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX flags_tenant_key_key ON flags (tenant_id, key)`);

    await q.query(`CREATE TABLE stock_locations (${base}, key text NOT NULL, name text NOT NULL, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX stock_locations_tenant_key_key ON stock_locations (tenant_id, key)`);

    await q.query(`CREATE TABLE products (${base}, key text NOT NULL, handle text, title jsonb NOT NULL DEFAULT '{}', body_html jsonb NOT NULL DEFAULT '{}',
      summary_html jsonb NOT NULL DEFAULT '{}', manufacturer_id uuid REFERENCES manufacturers(id) ON DELETE SET NULL, category_ids uuid[] NOT NULL DEFAULT '{}',
      flag_id uuid REFERENCES flags(id) ON DELETE SET NULL, tags text[] NOT NULL DEFAULT '{}', published boolean NOT NULL DEFAULT true,
      rating numeric(4,2) NOT NULL DEFAULT 0, rating_count int NOT NULL DEFAULT 0, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX products_tenant_key_key ON products (tenant_id, key)`);
    await q.query(`CREATE INDEX products_tenant_handle_idx ON products (tenant_id, handle)`);

    await q.query(`CREATE TABLE product_images (${base}, product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE, position int NOT NULL,
      src text, alt text, width int NOT NULL DEFAULT 0, height int NOT NULL DEFAULT 0)`);
    await q.query(`CREATE INDEX product_images_tenant_product_idx ON product_images (tenant_id, product_id, position)`);

    await q.query(`CREATE TABLE product_ratings (${base}, product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE, value smallint NOT NULL,
      approved boolean NOT NULL DEFAULT true)`);
    await q.query(`CREATE INDEX product_ratings_tenant_product_idx ON product_ratings (tenant_id, product_id)`);

    // prices: `price`/`compare_at_price` as imported (default currency, gross or net per settings); gross/net derived
    await q.query(`CREATE TABLE variants (${base}, product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE, key text NOT NULL, handle text, sku text,
      title jsonb NOT NULL DEFAULT '{}', position int NOT NULL DEFAULT 0,
      price numeric(14,4) NOT NULL DEFAULT 0, compare_at_price numeric(14,4), gross numeric(14,4) NOT NULL DEFAULT 0, net numeric(14,4) NOT NULL DEFAULT 0,
      compare_at_gross numeric(14,4), tax_rate numeric(6,3) NOT NULL DEFAULT 0,
      published boolean NOT NULL DEFAULT true, active boolean NOT NULL DEFAULT true,
      color_id uuid REFERENCES facet_values(id) ON DELETE SET NULL, region_id uuid REFERENCES facet_values(id) ON DELETE SET NULL,
      year_id uuid REFERENCES facet_values(id) ON DELETE SET NULL, size_id uuid REFERENCES facet_values(id) ON DELETE SET NULL,
      country_id uuid REFERENCES facet_values(id) ON DELETE SET NULL,
      alcohol_volume numeric(5,2), grams int, option_group text, description jsonb NOT NULL DEFAULT '{}', description_additional jsonb NOT NULL DEFAULT '{}',
      area text, quantity_min numeric(12,3) NOT NULL DEFAULT 1, quantity_max numeric(12,3), quantity_increment numeric(12,3) NOT NULL DEFAULT 1,
      option_ids uuid[] NOT NULL DEFAULT '{}', track_inventory boolean NOT NULL DEFAULT true, allow_backorder boolean NOT NULL DEFAULT false, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX variants_tenant_key_key ON variants (tenant_id, key)`);
    await q.query(`CREATE INDEX variants_tenant_product_idx ON variants (tenant_id, product_id, position)`);

    // the stock ledger: on-hand of a (variant, location) is the sum of its movements
    await q.query(`CREATE TABLE stock_movements (
      id bigserial PRIMARY KEY,
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      variant_id uuid NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
      location_id uuid NOT NULL REFERENCES stock_locations(id) ON DELETE CASCADE,
      delta numeric(14,3) NOT NULL,
      reason text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX stock_movements_tenant_variant_idx ON stock_movements (tenant_id, variant_id, location_id) INCLUDE (delta)`);

    await q.query(`CREATE TABLE shipping_methods (${base}, key text NOT NULL, name jsonb NOT NULL DEFAULT '{}', price numeric(14,4) NOT NULL DEFAULT 0,
      tax_rate numeric(6,3) NOT NULL DEFAULT 0, countries text[] NOT NULL DEFAULT '{}', free_over numeric(14,4), delivery_days int, import_hash text)`);
    await q.query(`CREATE UNIQUE INDEX shipping_methods_tenant_key_key ON shipping_methods (tenant_id, key)`);
    await q.query(
      `CREATE TABLE payment_types (${base}, key text NOT NULL, name jsonb NOT NULL DEFAULT '{}', kind text NOT NULL, image_url text, import_hash text)`,
    );
    await q.query(`CREATE UNIQUE INDEX payment_types_tenant_key_key ON payment_types (tenant_id, key)`);

    await q.query(`CREATE TABLE collection_products (
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      collection_id uuid NOT NULL,
      product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      position int NOT NULL DEFAULT 0,
      PRIMARY KEY (collection_id, product_id))`);
    await q.query(`CREATE INDEX collection_products_tenant_collection_idx ON collection_products (tenant_id, collection_id, position)`);
    // the collections table belongs to the collections module (an earlier migration); import upserts by `key`
    await q.query(`DO $$ BEGIN
      IF to_regclass('collections') IS NOT NULL THEN
        ALTER TABLE collections ADD COLUMN IF NOT EXISTS key text;
        CREATE UNIQUE INDEX IF NOT EXISTS collections_tenant_key_key ON collections (tenant_id, key) WHERE key IS NOT NULL;
        ALTER TABLE collection_products ADD CONSTRAINT collection_products_collection_fk FOREIGN KEY (collection_id) REFERENCES collections(id) ON DELETE CASCADE;
      END IF;
    END $$`);

    // one row per visible (published, active) variant of a published product: the storefront's search index
    await q.query(`CREATE TABLE variant_search (
      variant_id uuid PRIMARY KEY REFERENCES variants(id) ON DELETE CASCADE,
      tenant_id uuid NOT NULL,
      product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      position int NOT NULL DEFAULT 0,
      product_created_at timestamptz(3) NOT NULL,
      title_sort text COLLATE "C" NOT NULL DEFAULT '',
      rating numeric(4,2) NOT NULL DEFAULT 0,
      gross numeric(14,4) NOT NULL,
      on_sale boolean NOT NULL DEFAULT false,
      available boolean NOT NULL DEFAULT true,
      manufacturer_id uuid,
      color_id uuid, region_id uuid, year_id uuid, size_id uuid, country_id uuid,
      option_ids uuid[] NOT NULL DEFAULT '{}',
      category_ids uuid[] NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      search_text text NOT NULL DEFAULT '',
      search_tsv tsvector NOT NULL DEFAULT ''::tsvector)`);
    await q.query(`CREATE INDEX variant_search_tenant_product_idx ON variant_search (tenant_id, product_id)`);
    await q.query(`CREATE INDEX variant_search_tenant_created_idx ON variant_search (tenant_id, product_created_at DESC, product_id DESC)`);
    await q.query(`CREATE INDEX variant_search_tenant_title_idx ON variant_search (tenant_id, title_sort, product_id)`);
    await q.query(`CREATE INDEX variant_search_tenant_gross_idx ON variant_search (tenant_id, gross)`);
    await q.query(`CREATE INDEX variant_search_tenant_manufacturer_idx ON variant_search (tenant_id, manufacturer_id)`);
    await q.query(
      `CREATE INDEX variant_search_facets_gin ON variant_search USING gin (tenant_id, category_ids, option_ids, color_id, region_id, year_id, size_id, country_id)`,
    );
    await q.query(`CREATE INDEX variant_search_tsv_gin ON variant_search USING gin (tenant_id, search_tsv)`);
    await q.query(`CREATE INDEX variant_search_trgm_gin ON variant_search USING gin (tenant_id, search_text gin_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'variant_search',
      'collection_products',
      'payment_types',
      'shipping_methods',
      'stock_movements',
      'variants',
      'product_ratings',
      'product_images',
      'products',
      'stock_locations',
      'flags',
      'custom_field_options',
      'custom_fields',
      'facet_values',
      'categories',
      'manufacturers',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
    await q.query(`DROP INDEX IF EXISTS collections_tenant_key_key`);
  }
}
