import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ownerClause, ownerOf } from '../cart/index.js';
import { isListedProduct, listedProductSql, StorefrontCatalogueService } from '../catalogue/index.js';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import type { OffsetPage } from '../common/paging/offset-page.js';
import { AddWishlistItemDto, WishlistDto } from './dto/wishlist.dto.js';

/**
 * The storefront wishlist (SPEC "Wishlist", "Storefront: wishlist"): saved products (not variants) of the request's
 * owner (shopper, else visitor cookie), newest first, each in the catalogue's list projection.
 */
@Injectable()
export class WishlistService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogue: StorefrontCatalogueService,
  ) {}

  async get(ctx: RequestContext, page: OffsetPage = { limit: 50, offset: 0 }): Promise<WishlistDto> {
    const m = managerOf(ctx, this.dataSource);
    const params: unknown[] = [ctx.tenantId];
    const owner = ownerClause(ownerOf(ctx), params, 'w');
    const [{ n }]: Array<{ n: string }> = await m.query(`SELECT count(*) AS n FROM wishlist_items w WHERE w.tenant_id = $1 AND ${owner}`, params);
    const rows: Array<{ product_id: string; added_at: Date }> = await m.query(
      `SELECT w.product_id, w.added_at FROM wishlist_items w
       WHERE w.tenant_id = $1 AND ${owner}
         AND ${listedProductSql('w.product_id', 'w.tenant_id')}
       ORDER BY w.added_at DESC, w.id DESC
       LIMIT ${page.limit} OFFSET ${page.offset}`,
      params,
    );
    const products = new Map(
      (
        await this.catalogue.listProjection(
          ctx,
          rows.map((r) => r.product_id),
        )
      ).map((p) => [p.id, p]),
    );
    return {
      item_count: Number(n),
      items: rows
        .filter((r) => products.has(r.product_id))
        .map((r) => ({ product_id: r.product_id, added_at: new Date(r.added_at).toISOString(), product: products.get(r.product_id)! })),
    };
  }

  /** Saves a published product of this shop; saving it again changes nothing (idempotent). */
  async add(ctx: RequestContext, dto: AddWishlistItemDto): Promise<WishlistDto> {
    const m = managerOf(ctx, this.dataSource);
    if (!(await isListedProduct(m, ctx.tenantId, dto.product_id))) throw AppError.unprocessable('product_id does not name a published product of this shop');
    const owner = ownerOf(ctx);
    const conflict =
      owner.kind === 'customer'
        ? '(tenant_id, customer_id, product_id) WHERE customer_id IS NOT NULL'
        : '(tenant_id, visitor_id, product_id) WHERE customer_id IS NULL';
    await m.query(`INSERT INTO wishlist_items (tenant_id, visitor_id, customer_id, product_id) VALUES ($1, $2, $3, $4) ON CONFLICT ${conflict} DO NOTHING`, [
      ctx.tenantId,
      owner.kind === 'visitor' ? owner.visitorId : null,
      owner.kind === 'customer' ? owner.customerId : null,
      dto.product_id,
    ]);
    return this.get(ctx);
  }

  /** Unsaves a product; idempotent. */
  async remove(ctx: RequestContext, productId: string): Promise<WishlistDto> {
    const params: unknown[] = [ctx.tenantId, productId];
    await managerOf(ctx, this.dataSource).query(
      `DELETE FROM wishlist_items WHERE tenant_id = $1 AND product_id = $2 AND ${ownerClause(ownerOf(ctx), params)}`,
      params,
    );
    return this.get(ctx);
  }

  /** Unsaves everything; idempotent. */
  async clear(ctx: RequestContext): Promise<WishlistDto> {
    const params: unknown[] = [ctx.tenantId];
    await managerOf(ctx, this.dataSource).query(`DELETE FROM wishlist_items WHERE tenant_id = $1 AND ${ownerClause(ownerOf(ctx), params)}`, params);
    return this.get(ctx);
  }

  /** Carries a visitor's saved products over to a shopper at sign-in (kept once, the shopper's date wins); idempotent. */
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
