import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { PriceAdjuster, PriceLine, type PriceOverride } from './extension-points.js';
import { Extensions } from './extensions.service.js';

/**
 * The members of a catalogue line (the cart's and the checkout's line shape, pricing's `CatalogueLine`) the pricing
 * extension point sees; declared here, structurally, so src/extensions/ imports no feature module.
 */
export interface AdjustableLine {
  variantId: string;
  productId: string;
  /** Decimal string or number. */
  quantity: string | number;
  /** Unit gross and net in the default currency (numeric strings). */
  gross: string;
  net: string;
  taxRate: string | number;
}

const DECIMAL = /^\d{1,12}(\.\d{1,8})?$/;

/**
 * Runs every `PriceAdjuster` extension provider over the lines the cart or the checkout is about to price, in
 * registration order, and returns the lines with their unit prices replaced where an adjuster said so. With no
 * adjuster (the built-in service) the lines come back unchanged and nothing is queried.
 */
@Injectable()
export class PriceAdjustments {
  constructor(private readonly extensions: Extensions) {}

  async apply<L extends AdjustableLine>(ctx: RequestContext, customerId: string | null, lines: L[]): Promise<L[]> {
    const adjusters = this.extensions.all(PriceAdjuster);
    if (!adjusters.length || !lines.length) return lines;
    let current = lines;
    for (const adjuster of adjusters) {
      const view: PriceLine[] = current.map((l) => ({
        variantId: l.variantId,
        productId: l.productId,
        quantity: Number(l.quantity),
        gross: l.gross,
        net: l.net,
        taxRate: Number(l.taxRate),
      }));
      // an extension's answer, checked before use (Array.isArray would widen a ReadonlyArray to any[])
      const answer = (await adjuster.adjust(ctx, { customerId, lines: view })) as unknown;
      if (!Array.isArray(answer) || answer.length !== current.length) {
        throw new Error(
          `${adjuster.constructor.name}.adjust returned ${Array.isArray(answer) ? answer.length : typeof answer} entries for ${current.length} lines`,
        );
      }
      const overrides = answer as ReadonlyArray<PriceOverride | null | undefined>;
      current = current.map((l, i) => {
        const o = overrides[i];
        if (o === null || o === undefined) return l;
        if (!DECIMAL.test(o.gross) || !DECIMAL.test(o.net))
          throw new Error(`${adjuster.constructor.name}.adjust: invalid price ${JSON.stringify(o)} for variant ${l.variantId}`);
        return { ...l, gross: o.gross, net: o.net };
      });
    }
    return current;
  }
}
