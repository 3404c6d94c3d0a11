import { Module } from '@nestjs/common';
import { TaxProvider, type RequestContext, type TaxProviderAnswer, type TaxProviderRequest } from 'vinoshop-commerce';

/** Percent by destination country, and by tax category key within it (`*`: any category). */
export type FixedRates = Record<string, Record<string, number>>;

/**
 * Example extension: a `TaxProvider` standing in for an outside tax service (README "Taxes"). It answers from a
 * fixed table; a real one would call the service over HTTP. A country it does not know makes it throw, so the shop's
 * own tables answer (the fallback of `TaxService`, with a warning and `tax_provider_fallbacks_total`).
 */
export class FixedRateTaxProvider extends TaxProvider {
  readonly name = 'fixed-rate';

  constructor(private readonly table: FixedRates) {
    super();
  }

  rates(_ctx: RequestContext, request: TaxProviderRequest): Promise<TaxProviderAnswer> {
    const country = request.destination?.country ?? '';
    const rates = this.table[country];
    if (!rates) return Promise.reject(new Error(`no rates for "${country}"`));
    const rateOf = (category: string | null) => rates[category ?? '*'] ?? rates['*'] ?? 0;
    const lines = request.lines.map((l) => ({ variantId: l.variantId, rate: rateOf(l.category) }));
    return Promise.resolve({ lines, shippingRate: request.shipping ? Math.max(0, ...lines.map((l) => l.rate)) : null });
  }
}

/** The module for `createShopApp({imports: [FixedRateTaxModule.with(table)]})`. */
@Module({})
export class FixedRateTaxModule {
  static with(table: FixedRates) {
    return { module: FixedRateTaxModule, providers: [{ provide: FixedRateTaxProvider, useValue: new FixedRateTaxProvider(table) }] };
  }
}
