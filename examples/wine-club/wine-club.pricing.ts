import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, PriceAdjuster } from 'vinoshop-commerce';
import type { PriceAdjustmentRequest, PriceLine, PriceOverride, RequestContext } from 'vinoshop-commerce';

/**
 * The club price of a line: the club's gross price when it is lower than the catalogue's (a club price never makes
 * a bottle dearer), with the net scaled by the same factor so the line keeps its tax split. Null: keep the price.
 */
export function clubPrice(line: Pick<PriceLine, 'gross' | 'net'>, club: string | undefined): PriceOverride | null {
  if (club === undefined) return null;
  const gross = Number(line.gross);
  const price = Number(club);
  if (!Number.isFinite(price) || !(price < gross)) return null;
  const net = gross > 0 ? (price * Number(line.net)) / gross : 0;
  return { gross: price.toFixed(4), net: net.toFixed(6) };
}

/**
 * The wine club on the pricing extension point: a member's cart, checkout and order use the club price of every
 * variant that has one. Guests, visitors and customers who are not members pay the catalogue price. Reads in the
 * caller's transaction (the order placement prices under its locks).
 */
@Injectable()
export class WineClubPricing extends PriceAdjuster {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async adjust(ctx: RequestContext, request: PriceAdjustmentRequest): Promise<Array<PriceOverride | null>> {
    const { customerId, lines } = request;
    if (!customerId) return lines.map(() => null);
    const rows = (await managerOf(ctx, this.dataSource).query(
      `SELECT p.variant_id, p.price::text AS price FROM wine_club_prices p
        WHERE p.tenant_id = $1 AND p.variant_id = ANY($2::uuid[])
          AND EXISTS (SELECT 1 FROM wine_club_members m WHERE m.tenant_id = $1 AND m.customer_id = $3)`,
      [ctx.tenantId, lines.map((l) => l.variantId), customerId],
    )) as Array<{ variant_id: string; price: string }>;
    const club = new Map(rows.map((r) => [r.variant_id, r.price]));
    return lines.map((l) => clubPrice(l, club.get(l.variantId)));
  }
}
