import { DynamicModule, Injectable, Inject, Module } from '@nestjs/common';
import { RequestContext, ShippingRate, ShippingRateProvider, ShippingRateRequest } from 'vinoshop-commerce';

/** The demo carrier's tariff, in minor units of the checkout's currency; `latencyMs` stands for a slow carrier API. */
export interface CarrierRatesOptions {
  baseMinor: number;
  perBottleMinor: number;
  /** Countries the carrier does not serve (it answers null: the method is not offered there). */
  refuses: string[];
  latencyMs: number;
}

export const CARRIER_RATES_OPTIONS = Symbol('CARRIER_RATES_OPTIONS');

/**
 * Example extension: carrier-calculated shipping rates (README "Shipping", `ShippingRateProvider`). A shipping method
 * with `"rate_provider": "demo-carrier"` asks this provider at every checkout read and at placement; when it fails or
 * answers later than `SHIPPING_RATE_PROVIDER_TIMEOUT_MS`, the method's own rate table applies (warning, metric).
 * A real carrier module would call the carrier's API here (with the request's parcel and destination).
 */
@Injectable()
export class CarrierRates extends ShippingRateProvider {
  readonly name = 'demo-carrier';

  constructor(@Inject(CARRIER_RATES_OPTIONS) private readonly options: CarrierRatesOptions) {
    super();
  }

  async rate(_ctx: RequestContext, request: ShippingRateRequest): Promise<ShippingRate | null> {
    if (this.options.latencyMs > 0) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    if (request.destination.country && this.options.refuses.includes(request.destination.country)) return null;
    const bottles = request.lines.reduce((n, l) => n + l.quantity, 0);
    return { amount: this.options.baseMinor + Math.ceil(bottles) * this.options.perBottleMinor, deliveryDays: 3 };
  }
}

@Module({})
export class CarrierRatesModule {
  static forRoot(options: CarrierRatesOptions): DynamicModule {
    return { module: CarrierRatesModule, providers: [{ provide: CARRIER_RATES_OPTIONS, useValue: options }, CarrierRates] };
  }
}
