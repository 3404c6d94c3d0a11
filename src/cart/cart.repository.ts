import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  sellableVariantRule,
  sellableVariantRuleSql,
  sellableVariants,
  sellableVariantsSql,
  variantPromotionFacts,
  type QuantityRuleRow,
  type SellableVariantRow,
  type VariantPromotionFactsRow,
} from '../catalogue/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import type { CleanupSweep } from '../common/db/sweep.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { customerType } from '../customers/index.js';
import type { CouponRefusal } from '../pricing/index.js';
import { ownerClause, ownerColumns, type Owner } from './cart-owner.js';
import { prepared } from '../database/prepared-statements.js';

/**
 * The cart of a checkout's owner emptied as parts (CTEs) of another module's statement (issue 34: the order
 * placement's, one round trip less): `tenant`, `customer` and `visitor` are that statement's parameters (`$n`). The
 * customer's cart when `customer` is not null, else the visitor's (as `ownerClause`); its row loses its coupon and its
 * lines go, as `empty` does. Both null: nothing.
 */
export function emptyCartCtes(tenant: string, customer: string, visitor: string): string {
  return `cart_emptied AS (
       UPDATE carts SET discount_code = NULL, discount_code_error = NULL, updated_at = now()
       WHERE tenant_id = ${tenant} AND (customer_id = ${customer}::uuid OR (${customer}::uuid IS NULL AND visitor_id = ${visitor}::text AND customer_id IS NULL))
       RETURNING id
     ), cart_lines_gone AS (
       DELETE FROM cart_items WHERE tenant_id = ${tenant} AND cart_id IN (SELECT id FROM cart_emptied)
     )`;
}

/** The cart module owns `carts` and `cart_items` (`CartService` alone writes them, through `CartRepository`). */

/** Cleanup (maintenance job): anonymous carts untouched (cart and lines) for the configured age. */
export const CART_SWEEPS: CleanupSweep[] = [
  {
    name: 'anonymous_carts',
    table: 'carts',
    key: 'id',
    age: (c) => c.CLEANUP_ANONYMOUS_CARTS_AFTER_MS,
    select: `SELECT k.id FROM carts k
               WHERE k.customer_id IS NULL AND coalesce(k.updated_at, k.created_at) < now() - $2::interval
                 AND NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = k.id AND coalesce(i.updated_at, i.created_at) >= now() - $2::interval)`,
  },
];

/** A `carts` row as the service reads it. */
export interface CartRow {
  id: string;
  currency_id: string | null;
  discount_code: string | null;
  discount_code_error: CouponRefusal | null;
}

/** What `addChecked` answers (see there). */
export interface CheckedAdd {
  rule: QuantityRuleRow | null;
  wanted: string;
  quantity: string | null;
  cart: CartRow | null;
  items: CartItemRow[];
  sold: SellableVariantRow[];
}

/**
 * The quantity rule (`quantityRuleViolation` of src/pricing, as SQL) holding for the quantity `q` (an SQL numeric
 * expression) under `rule` (an alias with `min`, `max`, `increment` as decimal text): at least `min`, at most `max`
 * when set, a multiple of `increment` when it is above 0. An e2e test compares the two over a grid of values.
 */
export function quantityRuleHoldsSql(q: string, rule: string): string {
  return `(${q} >= ${rule}.min::numeric AND (${rule}.max IS NULL OR ${q} <= ${rule}.max::numeric)
           AND (${rule}.increment::numeric <= 0 OR mod(${q}, ${rule}.increment::numeric) = 0))`;
}

/** A `cart_items` row: the line's variant and quantity (decimal text). */
export interface CartItemRow {
  variant_id: string;
  quantity: string;
}

/**
 * Every statement `CartService` runs, in the context's transaction when one is open (`ctx.manager`), and the
 * catalogue and customer reads it needs through the same manager. The service holds the rules (pricing, coupons,
 * quantity rules) and is unit-tested with this class faked.
 */
@Injectable()
export class CartRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(ctx: RequestContext): EntityManager {
    return managerOf(ctx, this.dataSource);
  }

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** The owner's cart row, or null while it has none. */
  async findCart(ctx: RequestContext, owner: Owner): Promise<CartRow | null> {
    const params: unknown[] = [ctx.tenantId];
    const rows: CartRow[] = await this.m(ctx).query(
      prepared(`SELECT id, currency_id, discount_code, discount_code_error FROM carts WHERE tenant_id = $1 AND ${ownerClause(owner, params)}`),
      params,
    );
    return rows[0] ?? null;
  }

  /** Drops the cart's coupon `code` (still set) and keeps why (`refusal`). */
  async dropCoupon(ctx: RequestContext, cartId: string, code: string, refusal: CouponRefusal): Promise<void> {
    await this.m(ctx).query(
      `UPDATE carts SET discount_code = NULL, discount_code_error = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2 AND discount_code = $4`,
      [cartId, ctx.tenantId, refusal, code],
    );
  }

  /**
   * One statement: the owner's cart row (created when absent), then `quantity` added to the line's (`INSERT ... ON
   * CONFLICT DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity`, so concurrent adds never lose an
   * increment). Returns the line's resulting quantity and the cart row as written (issue 34: the answer needs no read
   * of it).
   */
  async addToLine(ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<{ quantity: string; cart: CartRow }> {
    const rows = await this.upsertLine(ctx, owner, variantId, quantity, 'add');
    return rows[0];
  }

  /**
   * POST /cart/items in ONE statement (issue 34; it was six with the transaction and the reads after): the variant's
   * quantity rule (visible variants only), the line's quantity after the add checked against it, and only when it
   * holds the cart row upserted and `quantity` added to the line (checked again on the row as it is when written, so
   * concurrent adds never lose an increment nor pass the rule). Returns the rule (null: no such variant is sold), the
   * quantity wanted, the line's quantity as written (null: nothing was written), the cart row as written, the cart's
   * lines as they were before this statement (oldest first) and the catalogue rows of them and of the added variant.
   */
  async addChecked(ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<CheckedAdd> {
    const o = ownerColumns(owner);
    const params: unknown[] = [ctx.tenantId, o.visitorId, o.customerId, variantId, quantity];
    const owned = ownerClause(owner, params, 'c');
    const rows: CheckedAdd[] = await this.m(ctx).query(
      prepared(`WITH rule AS (${sellableVariantRuleSql('$1', '$4')}),
       items AS (SELECT ci.variant_id, ci.quantity, ci.created_at, ci.id FROM carts c
                   JOIN cart_items ci ON ci.tenant_id = c.tenant_id AND ci.cart_id = c.id WHERE c.tenant_id = $1 AND ${owned}),
       wanted AS (SELECT coalesce((SELECT i.quantity FROM items i WHERE i.variant_id = $4), 0) + $5::numeric AS q),
       ok AS (SELECT 1 FROM rule r, wanted w WHERE ${quantityRuleHoldsSql('w.q', 'r')}),
       cart AS (
         INSERT INTO carts (tenant_id, visitor_id, customer_id) SELECT $1, $2::text, $3::uuid FROM ok
         ON CONFLICT ${o.conflict} DO UPDATE SET updated_at = now()
         RETURNING id, currency_id, discount_code, discount_code_error),
       line AS (
         INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity) SELECT $1, cart.id, $4, $5::numeric FROM cart
         ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()
           WHERE EXISTS (SELECT 1 FROM rule r WHERE ${quantityRuleHoldsSql('cart_items.quantity + EXCLUDED.quantity', 'r')})
         RETURNING quantity)
       SELECT (SELECT row_to_json(r) FROM rule r) AS rule, (SELECT w.q::text FROM wanted w) AS wanted, (SELECT l.quantity::text FROM line l) AS quantity,
              (SELECT row_to_json(c) FROM cart c) AS cart,
              (SELECT coalesce(json_agg(json_build_object('variant_id', i.variant_id, 'quantity', i.quantity::text) ORDER BY i.created_at, i.id), '[]'::json)
                 FROM items i) AS items,
              (SELECT coalesce(json_agg(s), '[]'::json) FROM (${sellableVariantsSql('$1', 'ARRAY(SELECT i.variant_id FROM items i) || $4::uuid')}) s) AS sold`),
      params,
    );
    return rows[0];
  }

  /** One statement: the owner's cart row (created when absent), then the line's quantity set to `quantity`. */
  async setLine(ctx: RequestContext, owner: Owner, variantId: string, quantity: string): Promise<void> {
    await this.upsertLine(ctx, owner, variantId, quantity, 'set');
  }

  /** The cart upsert with the line's: `add` sums the quantities and returns the result, `set` replaces it. */
  private upsertLine(
    ctx: RequestContext,
    owner: Owner,
    variantId: string,
    quantity: string,
    mode: 'add' | 'set',
  ): Promise<Array<{ quantity: string; cart: CartRow }>> {
    const o = ownerColumns(owner);
    return this.m(ctx).query(
      `WITH cart AS (
         INSERT INTO carts (tenant_id, visitor_id, customer_id) VALUES ($1, $2, $3)
         ON CONFLICT ${o.conflict} DO UPDATE SET updated_at = now()
         RETURNING id, currency_id, discount_code, discount_code_error)
       INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity)
       SELECT $1, cart.id, $4, $5::numeric FROM cart
       ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = ${mode === 'add' ? 'cart_items.quantity + EXCLUDED.quantity, updated_at = now()\n       RETURNING quantity, (SELECT row_to_json(c) FROM cart c) AS cart' : 'EXCLUDED.quantity, updated_at = now()'}`,
      [ctx.tenantId, o.visitorId, o.customerId, variantId, quantity],
    );
  }

  /** Removes the owner's line of `variantId` (if any). */
  async removeLine(ctx: RequestContext, owner: Owner, variantId: string): Promise<void> {
    const params: unknown[] = [ctx.tenantId, variantId];
    await this.m(ctx).query(
      `DELETE FROM cart_items ci USING carts c WHERE ci.cart_id = c.id AND c.tenant_id = $1 AND ci.variant_id = $2 AND ${ownerClause(owner, params, 'c')}`,
      params,
    );
  }

  /** One statement (issue 34): the owner's cart row loses its coupon, its lines go. */
  async empty(ctx: RequestContext, owner: Owner): Promise<void> {
    const params: unknown[] = [ctx.tenantId];
    await this.m(ctx).query(
      prepared(`WITH cart AS (
         UPDATE carts SET discount_code = NULL, discount_code_error = NULL, updated_at = now() WHERE tenant_id = $1 AND ${ownerClause(owner, params)} RETURNING id)
       DELETE FROM cart_items WHERE tenant_id = $1 AND cart_id IN (SELECT id FROM cart)`),
      params,
    );
  }

  /** The owner's cart (created when absent) takes this currency. */
  async setCurrency(ctx: RequestContext, owner: Owner, currencyId: string): Promise<void> {
    const o = ownerColumns(owner);
    await this.m(ctx).query(
      `INSERT INTO carts (tenant_id, visitor_id, customer_id, currency_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT ${o.conflict} DO UPDATE SET currency_id = EXCLUDED.currency_id, updated_at = now()`,
      [ctx.tenantId, o.visitorId, o.customerId, currencyId],
    );
  }

  /** The owner's cart (created when absent) takes this code; a dropped coupon's reason goes. */
  async setDiscountCode(ctx: RequestContext, owner: Owner, code: string | null): Promise<void> {
    const o = ownerColumns(owner);
    await this.m(ctx).query(
      `INSERT INTO carts (tenant_id, visitor_id, customer_id, discount_code) VALUES ($1, $2, $3, $4)
       ON CONFLICT ${o.conflict} DO UPDATE SET discount_code = EXCLUDED.discount_code, discount_code_error = NULL, updated_at = now()`,
      [ctx.tenantId, o.visitorId, o.customerId, code],
    );
  }

  /** Clears the owner's coupon and a dropped coupon's reason (no write when both are already empty). */
  async clearDiscountCode(ctx: RequestContext, owner: Owner): Promise<void> {
    const params: unknown[] = [ctx.tenantId];
    await this.m(ctx).query(
      `UPDATE carts SET discount_code = NULL, discount_code_error = NULL, updated_at = now() WHERE tenant_id = $1 AND ${ownerClause(owner, params)}
         AND (discount_code IS NOT NULL OR discount_code_error IS NOT NULL)`,
      params,
    );
  }

  /** The visitor's cart (no customer), locked until commit. */
  async lockVisitorCart(tx: RequestContext, visitorId: string): Promise<CartRow | null> {
    const [visitor]: CartRow[] = await this.m(tx).query(
      `SELECT id, currency_id, discount_code FROM carts WHERE tenant_id = $1 AND visitor_id = $2 AND customer_id IS NULL FOR UPDATE`,
      [tx.tenantId, visitorId],
    );
    return visitor ?? null;
  }

  /** The customer's cart id, locked until commit. */
  async lockCustomerCart(tx: RequestContext, customerId: string): Promise<{ id: string } | null> {
    const [mine]: Array<{ id: string }> = await this.m(tx).query(`SELECT id FROM carts WHERE tenant_id = $1 AND customer_id = $2 FOR UPDATE`, [
      tx.tenantId,
      customerId,
    ]);
    return mine ?? null;
  }

  /** The visitor's cart becomes the customer's. */
  async giveToCustomer(tx: RequestContext, cartId: string, customerId: string): Promise<void> {
    await this.m(tx).query(`UPDATE carts SET customer_id = $3, visitor_id = NULL, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
      cartId,
      tx.tenantId,
      customerId,
    ]);
  }

  /**
   * The lines of cart `fromId` added to cart `intoId` (quantities summed); `into` takes `from`'s currency and coupon
   * where set; cart `fromId` is deleted.
   */
  async mergeInto(tx: RequestContext, intoId: string, from: CartRow): Promise<void> {
    const m = this.m(tx);
    await m.query(
      `INSERT INTO cart_items (tenant_id, cart_id, variant_id, quantity)
       SELECT tenant_id, $2, variant_id, quantity FROM cart_items WHERE tenant_id = $1 AND cart_id = $3
       ON CONFLICT (tenant_id, cart_id, variant_id) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()`,
      [tx.tenantId, intoId, from.id],
    );
    await m.query(
      `UPDATE carts SET currency_id = coalesce($3, currency_id), discount_code = coalesce($4, discount_code),
         discount_code_error = CASE WHEN $4::text IS NULL THEN discount_code_error END, updated_at = now()
       WHERE id = $1 AND tenant_id = $2`,
      [intoId, tx.tenantId, from.currency_id, from.discount_code],
    );
    await m.query(`DELETE FROM carts WHERE id = $1 AND tenant_id = $2`, [from.id, tx.tenantId]);
  }

  /** The cart's lines (oldest first) and the catalogue's rows of their variants still sold, in one statement (issue 34). */
  async itemsSold(ctx: RequestContext, cartId: string): Promise<{ items: CartItemRow[]; sold: SellableVariantRow[] }> {
    const [row]: Array<{ items: CartItemRow[]; sold: SellableVariantRow[] }> = await this.m(ctx).query(
      prepared(`WITH items AS (SELECT ci.variant_id, ci.quantity, ci.created_at, ci.id FROM cart_items ci WHERE ci.tenant_id = $1 AND ci.cart_id = $2)
       SELECT (SELECT coalesce(json_agg(json_build_object('variant_id', i.variant_id, 'quantity', i.quantity::text) ORDER BY i.created_at, i.id), '[]'::json)
                 FROM items i) AS items,
              (SELECT coalesce(json_agg(s), '[]'::json) FROM (${sellableVariantsSql('$1', 'ARRAY(SELECT i.variant_id FROM items i)')}) s) AS sold`),
      [ctx.tenantId, cartId],
    );
    return row;
  }

  /** The catalogue's rows of the variants the storefront still sells, by id. */
  sellableVariants(ctx: RequestContext, variantIds: string[]): Promise<Map<string, SellableVariantRow>> {
    return sellableVariants(this.m(ctx), ctx.tenantId, variantIds);
  }

  /** The quantity rule of a variant the storefront may sell; null when it sells no such variant. */
  sellableVariantRule(ctx: RequestContext, variantId: string): Promise<QuantityRuleRow | null> {
    return sellableVariantRule(this.m(ctx), ctx.tenantId, variantId);
  }

  /** What the promotions engine matches variants on. */
  variantPromotionFacts(ctx: RequestContext, variantIds: string[]): Promise<VariantPromotionFactsRow[]> {
    return variantPromotionFacts(this.m(ctx), ctx.tenantId, variantIds);
  }

  /** The customer's type (`corporate`, `reseller`, ...), null when none is set. */
  customerType(ctx: RequestContext, customerId: string): Promise<string | null> {
    return customerType(this.m(ctx), ctx.tenantId, customerId);
  }
}
