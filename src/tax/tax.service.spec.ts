import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { TaxProvider, type Extensions, type TaxProviderAnswer, type TaxProviderRequest } from '../extensions/index.js';
import type { Metrics } from '../observability/index.js';
import type { TaxRules } from './tax-engine.js';
import { TaxService, volumeFromSize } from './tax.service.js';

const rules: TaxRules = {
  settings: { mode: 'destination', gross_price_policy: 'constant', excise_display: 'included' },
  zones: [{ id: 'z-fr', key: 'FR', name: 'France', countries: ['FR'], regions: [], postcodes: [] }],
  categories: [{ id: 'c-wine', key: 'wine', name: 'Wine', excise_class: null }],
  rates: [{ id: 'r', category_id: 'c-wine', zone_id: 'z-fr', rate: '20', excise_per_hl: '0', valid_from: null, valid_to: null }],
};
const input = {
  lines: [{ variantId: 'v', productId: 'p', quantity: 1, gross: '11.90', net: '10.00', taxRate: 19, grams: null }],
  currency: { id: 'eur', code: 'EUR', rate: '1', precision: 2, isDefault: true },
  pricesIncludeTax: false,
  couponCode: null,
  coupon: null,
  defaultCurrencyId: 'eur',
  shipping: null,
  day: '2026-06-01',
  destination: { country: 'FR' },
  variants: new Map([['v', { categoryId: 'c-wine', volumeMl: null, alcoholVolume: null }]]),
};

class FakeProvider extends TaxProvider {
  readonly name = 'fake';
  requests: TaxProviderRequest[] = [];
  constructor(private readonly answer: () => Promise<TaxProviderAnswer>) {
    super();
  }
  rates(_ctx: RequestContext, request: TaxProviderRequest): Promise<TaxProviderAnswer> {
    this.requests.push(request);
    return this.answer();
  }
}

function service(provider: TaxProvider | null) {
  const counted: string[] = [];
  const metrics = { taxProviderFallbacks: { inc: (l: { reason: string }) => counted.push(l.reason) } } as unknown as Metrics;
  const extensions = { one: () => provider } as unknown as Extensions;
  const s = new TaxService({} as DataSource, { TAX_PROVIDER_TIMEOUT_MS: 30 } as AppConfig, extensions, metrics);
  return { s, counted };
}
const ctx = RequestContext.forTenant('00000000-0000-0000-0000-000000000001');

describe('TaxService.totals and the TaxProvider', () => {
  it("without a provider: the shop's tables", async () => {
    const { s } = service(null);
    expect((await s.totals(ctx, rules, input)).taxLines).toEqual([{ name: 'Tax 20% France', rate: 20, amount: 200 }]);
  });

  it("a provider's rates replace the tables, and it is told the lines and the destination", async () => {
    const p = new FakeProvider(async () => ({ lines: [{ variantId: 'v', rate: 5 }], shippingRate: null }));
    const { s, counted } = service(p);
    expect((await s.totals(ctx, rules, input)).taxLines).toEqual([{ name: 'Tax 5% France', rate: 5, amount: 50 }]);
    expect(p.requests[0]).toMatchObject({ destination: { country: 'FR' }, lines: [{ variantId: 'v', category: 'wine', originRate: 19, unitPrice: '10.00' }] });
    expect(counted).toEqual([]);
  });

  it('a late, failing or incomplete answer falls back to the tables and is counted', async () => {
    const late = new FakeProvider(() => new Promise((resolve) => setTimeout(() => resolve({ lines: [{ variantId: 'v', rate: 5 }], shippingRate: null }), 200)));
    const failing = new FakeProvider(() => Promise.reject(new Error('down')));
    const incomplete = new FakeProvider(async () => ({ lines: [], shippingRate: null }));
    const absurd = new FakeProvider(async () => ({ lines: [{ variantId: 'v', rate: 150 }], shippingRate: null }));
    for (const [p, reason] of [
      [late, 'timeout'],
      [failing, 'error'],
      [incomplete, 'invalid'],
      [absurd, 'invalid'],
    ] as const) {
      const { s, counted } = service(p);
      expect((await s.totals(ctx, rules, input)).taxLines).toEqual([{ name: 'Tax 20% France', rate: 20, amount: 200 }]);
      expect(counted).toEqual([reason]);
    }
  });
});

describe('volumeFromSize', () => {
  it('reads ml, cl and l from a size name', () => {
    expect(volumeFromSize({ en: '75 cl' })).toBe(750);
    expect(volumeFromSize({ en: '1,5 l' })).toBe(1500);
    expect(volumeFromSize({ en: '375ml' })).toBe(375);
    expect(volumeFromSize({ en: 'Magnum' })).toBeNull();
    expect(volumeFromSize(null)).toBeNull();
  });
});
