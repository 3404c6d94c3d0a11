import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ownerClause, type ownerOf } from '../cart/index.js';
import { isListedProduct, listedProductSql } from '../catalogue/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import type { OffsetPage } from '../common/paging/offset-page.js';

/** Whose wishlist: the signed-in shopper's, else the visitor's (the cart's owner rule). */
export type WishlistOwner = ReturnType<typeof ownerOf>;

/** A saved product and when it was saved. */
export interface WishlistItemRow {
  product_id: string;
  added_at: Date;
}

/**
 * The wishlist module owns `wishlist_items`; every statement of `WishlistService` is here, in the context's
 * transaction when one is open. Whether a product is listed is the catalogue's (`listedProductSql`, `isListedProduct`).
 */
@Injectable()
export class WishlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many products the owner saved (listed or not). */
  async count(ctx: RequestContext, owner: WishlistOwner): Promise<number> {
    const params: unknown[] = [ctx.tenantId];
    const [{ n }]: Array<{ n: string }> = await managerOf(ctx, this.dataSource).query(
      `SELECT count(*) AS n FROM wishlist_items w WHERE w.tenant_id = $1 AND ${ownerClause(owner, params, 'w')}`,
      params,
    );
    return Number(n);
  }

  /** The owner's saved products that are listed, newest first (ties by id), one offset page. */
  listed(ctx: RequestContext, owner: WishlistOwner, page: OffsetPage): Promise<WishlistItemRow[]> {
    const params: unknown[] = [ctx.tenantId];
    const clause = ownerClause(owner, params, 'w');
    return managerOf(ctx, this.dataSource).query(
      `SELECT w.product_id, w.added_at FROM wishlist_items w
       WHERE w.tenant_id = $1 AND ${clause}
         AND ${listedProductSql('w.product_id', 'w.tenant_id')}
       ORDER BY w.added_at DESC, w.id DESC
       LIMIT ${page.limit} OFFSET ${page.offset}`,
      params,
    );
  }

  /** True when the product is a published product of the shop. */
  isListedProduct(ctx: RequestContext, productId: string): Promise<boolean> {
    return isListedProduct(managerOf(ctx, this.dataSource), ctx.tenantId, productId);
  }

  /** Saves the product for the owner; nothing when it is saved already. */
  async add(ctx: RequestContext, owner: WishlistOwner, productId: string): Promise<void> {
    const conflict =
      owner.kind === 'customer'
        ? '(tenant_id, customer_id, product_id) WHERE customer_id IS NOT NULL'
        : '(tenant_id, visitor_id, product_id) WHERE customer_id IS NULL';
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO wishlist_items (tenant_id, visitor_id, customer_id, product_id) VALUES ($1, $2, $3, $4) ON CONFLICT ${conflict} DO NOTHING`,
      [ctx.tenantId, owner.kind === 'visitor' ? owner.visitorId : null, owner.kind === 'customer' ? owner.customerId : null, productId],
    );
  }

  /** Unsaves one product (null: every product) of the owner. */
  async remove(ctx: RequestContext, owner: WishlistOwner, productId: string | null): Promise<void> {
    const params: unknown[] = productId === null ? [ctx.tenantId] : [ctx.tenantId, productId];
    const product = productId === null ? '' : 'product_id = $2 AND ';
    await managerOf(ctx, this.dataSource).query(`DELETE FROM wishlist_items WHERE tenant_id = $1 AND ${product}${ownerClause(owner, params)}`, params);
  }

  /** Moves a visitor's saved products to a shopper (kept once, the shopper's date wins), in one transaction. */
  async mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await m.query(
        `INSERT INTO wishlist_items (tenant_id, customer_id, product_id, added_at)
         SELECT tenant_id, $3, product_id, added_at FROM wishlist_items WHERE tenant_id = $1 AND visitor_id = $2 AND customer_id IS NULL
         ON CONFLICT (tenant_id, customer_id, product_id) WHERE customer_id IS NOT NULL DO NOTHING`,
        [tx.tenantId, visitorId, customerId],
      );
      await m.query(`DELETE FROM wishlist_items WHERE tenant_id = $1 AND visitor_id = $2 AND customer_id IS NULL`, [tx.tenantId, visitorId]);
    });
  }
}
