import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  sellableVariants,
  variantPromotionFacts,
  variantVolumesOf,
  type SellableVariantRow,
  type VariantPromotionFactsRow,
  type VariantVolumeRow,
} from '../../catalogue/index.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { managerOf } from '../../common/db/tenant-scope.js';
import { zonesOf, type ZoneRow } from '../../tax/index.js';
import { checkoutLinesOf, orderedThisYearByEmail } from '../checkout.repository.js';

/**
 * The reads `CheckoutStateService` makes (its own lines, and the catalogue's, tax zones' and past orders' rows it
 * prices with), in the caller's transaction when one is open (the placement re-prices under its locks). The service
 * holds the rules and is unit-tested with this class faked.
 */
@Injectable()
export class CheckoutStateRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(ctx: RequestContext): EntityManager {
    return managerOf(ctx, this.dataSource);
  }

  /** The checkout's own lines (variant, quantity as decimal text) by position. */
  lines(ctx: RequestContext, checkoutId: string): Promise<Array<{ id: string; variant_id: string; quantity: string }>> {
    return checkoutLinesOf(this.m(ctx), ctx.tenantId, checkoutId);
  }

  /** The catalogue's rows of the variants the storefront still sells, by id. */
  sellableVariants(ctx: RequestContext, variantIds: string[]): Promise<Map<string, SellableVariantRow>> {
    return sellableVariants(this.m(ctx), ctx.tenantId, variantIds);
  }

  /** What the promotions engine matches variants on. */
  variantPromotionFacts(ctx: RequestContext, variantIds: string[]): Promise<VariantPromotionFactsRow[]> {
    return variantPromotionFacts(this.m(ctx), ctx.tenantId, variantIds);
  }

  /** The shop's tax zones. */
  zones(ctx: RequestContext): Promise<ZoneRow[]> {
    return zonesOf(this.m(ctx), ctx.tenantId);
  }

  /** Quantities per variant the buyer (by email) ordered this calendar year, cancelled orders left out. */
  orderedThisYear(ctx: RequestContext, email: string): Promise<Array<{ variant_id: string; quantity: string }>> {
    return orderedThisYearByEmail(this.m(ctx), ctx.tenantId, email);
  }

  /** Alcohol volume and size of these variants. */
  variantVolumes(ctx: RequestContext, variantIds: string[]): Promise<VariantVolumeRow[]> {
    return variantVolumesOf(this.m(ctx), ctx.tenantId, variantIds);
  }
}
