import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { matchingZones, zonesOf } from '../tax/index.js';
import { ShippingInputError } from './rate-table.js';

/** Where a checkout ships to, as zones see it. */
export interface AddressForZones {
  country: string | null;
  region: string | null;
  postcode: string | null;
}

/**
 * The shop's zones (the tax module's one zone model: countries, regions, postcode patterns) as shipping uses them:
 * by key. Among the zones a method or a rule names, the most specific containing the address wins (postcode >
 * region > country, the tax module's matcher).
 */
@Injectable()
export class ShippingZones {
  constructor(private readonly dataSource: DataSource) {}

  /** 422 naming the member (`pathOf(i)`) of the first key that names no zone of the shop. */
  async assertKnown(ctx: RequestContext, keys: string[], pathOf: (i: number) => string): Promise<void> {
    if (keys.length === 0) return;
    const known = new Set((await zonesOf(managerOf(ctx, this.dataSource), ctx.tenantId)).map((z) => z.key));
    const i = keys.findIndex((k) => !known.has(k));
    if (i >= 0) throw new ShippingInputError(pathOf(i), `names no zone of the shop ("${keys[i]}"; zones are named by their key)`);
  }

  /** For an address: given zone keys, the most specific of those zones that contains it (null: none). */
  async locator(ctx: RequestContext, address: AddressForZones): Promise<(keys: string[]) => string | null> {
    if (!address.country) return () => null;
    const zones = await zonesOf(managerOf(ctx, this.dataSource), ctx.tenantId);
    const containing = matchingZones(zones, address).flatMap((m) => (m.zone.key === null ? [] : [m.zone.key]));
    return (keys) => containing.find((k) => keys.includes(k)) ?? null;
  }
}
