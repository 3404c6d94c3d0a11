import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { SellableVariantRow } from '../catalogue/index.js';
import { RequestContext, type CurrencyInfo } from '../common/context/request-context.js';
import { DiscountCode, DiscountCodesService } from '../discounts/index.js';
import { PriceAdjustments } from '../extensions/index.js';
import { PromotionEvaluation } from '../promotions/index.js';
import { ShippingQuotes, type ShippingMethodRow } from '../shipping/index.js';
import { TaxService } from '../tax/index.js';
import { TenancyService, type TenantConfig } from '../tenancy/index.js';
import { CheckoutStateService } from './checkout-state.service.js';
import { Checkout } from './entities/checkout.entities.js';
import { CheckoutStateRepository } from './repositories/checkout-state.repository.js';
import { ShippingService } from './shipping.service.js';

/**
 * How a checkout is priced now (`CheckoutStateService.state`) in a shop of flat shipping prices without tax rules:
 * the checkout's currency, its lines still sold, the method offered for the country, a promotion's code, and the
 * litres the buyer ordered this year; every read replaced by rows in memory (the repository faked).
 */

const TENANT = '00000000-0000-0000-0000-000000000001';
const WINE = '00000000-0000-0000-0000-0000000000b1';
const GONE = '00000000-0000-0000-0000-0000000000b2';
const CHF: CurrencyInfo = { id: 'chf', code: 'CHF', rate: '1', precision: 2, isDefault: true };
const EUR: CurrencyInfo = { id: 'eur', code: 'EUR', rate: '0.5', precision: 2, isDefault: false };
const ctx = RequestContext.forTenant(TENANT);

const row = (id: string): SellableVariantRow =>
  ({
    variant_id: id,
    product_id: `p-${id}`,
    gross: '20.00',
    net: '20.00',
    tax_rate: '0',
    grams: 750,
    alcohol_volume: '13.5',
    size: null,
  }) as SellableVariantRow;

const method = (id: string, countries: string[], price: string): ShippingMethodRow => ({
  id,
  key: id,
  name: { en: id },
  price,
  tax_rate: '0',
  countries,
  free_over: null,
  delivery_days: null,
  rate_table: null,
  zones: [],
  rate_provider: null,
});

class FakeRepo {
  lineRows = [
    { id: 'l1', variant_id: WINE, quantity: '2.000' },
    { id: 'l2', variant_id: GONE, quantity: '1.000' },
  ];
  ordered: Array<{ variant_id: string; quantity: string }> = [];
  lines() {
    return Promise.resolve(this.lineRows);
  }
  sellableVariants(_ctx: RequestContext, ids: string[]) {
    return Promise.resolve(new Map(ids.filter((id) => id !== GONE).map((id) => [id, row(id)])));
  }
  variantPromotionFacts() {
    return Promise.resolve([]);
  }
  zones() {
    return Promise.resolve([]);
  }
  orderedThisYear() {
    return Promise.resolve(this.ordered);
  }
  variantVolumes(_ctx: RequestContext, ids: string[]) {
    return Promise.resolve(ids.map((id) => ({ variant_id: id, alcohol_volume: '13.5', size: { en: '75 cl' } })));
  }
}

async function setup(opts: { codes?: DiscountCode[]; promotionCodes?: string[] } = {}) {
  const repo = new FakeRepo();
  const prepared: Array<{ codes: string[]; hasDiscountCode: boolean }> = [];
  const litres: Array<number | null> = [];
  const config = {
    settings: { prices_include_tax: true },
    defaultCurrency: CHF,
    currencies: [
      { ...CHF, published: true },
      { ...EUR, published: true },
    ],
  } as unknown as TenantConfig;
  const methods = [method('post', ['CH'], '9.00'), method('courier', ['DE'], '15.00')];
  const module = await Test.createTestingModule({
    providers: [
      CheckoutStateService,
      { provide: CheckoutStateRepository, useValue: repo },
      { provide: TenancyService, useValue: { config: () => Promise.resolve(config) } },
      {
        provide: DiscountCodesService,
        useValue: { findByCode: (_c: RequestContext, code: string) => Promise.resolve(opts.codes?.find((d) => d.code === code) ?? null) },
      },
      { provide: ShippingService, useValue: { methods: () => Promise.resolve(methods), offeredFor: ShippingService.prototype.offeredFor } },
      { provide: PriceAdjustments, useValue: { apply: <L>(_c: RequestContext, _id: string | null, lines: L[]) => Promise.resolve(lines) } },
      { provide: TaxService, useValue: { rules: () => Promise.resolve(null), storedVolumes: () => Promise.resolve(new Map()) } },
      {
        provide: ShippingQuotes,
        useValue: {
          // the destination rules ask for the litres ordered this year; the spec records what the service answers
          judge: async (_c: RequestContext, _a: unknown, _lines: unknown, litresOrdered: () => Promise<number | null>) => {
            litres.push(await litresOrdered());
            return null;
          },
        },
      },
      {
        provide: PromotionEvaluation,
        useValue: {
          byCode: (_c: RequestContext, code: string) => Promise.resolve(opts.promotionCodes?.includes(code) ? { code } : null),
          prepare: (_c: RequestContext, input: { codes: string[]; hasDiscountCode: boolean }) => {
            prepared.push({ codes: input.codes, hasDiscountCode: input.hasDiscountCode });
            return Promise.resolve(null);
          },
        },
      },
    ],
  }).compile();
  return { service: module.get(CheckoutStateService), repo, prepared, litres };
}

const checkout = (over: Partial<Checkout> = {}): Checkout =>
  Object.assign(new Checkout(), {
    id: 'co-1',
    tenantId: TENANT,
    currencyId: 'chf',
    customerId: null,
    email: null,
    discountCode: null,
    shippingAddress: null,
    billingAddress: null,
    billingSameAsShipping: true,
    shippingMethodId: null,
    ...over,
  });

describe('CheckoutStateService (repository faked)', () => {
  it("prices the lines still sold in the checkout's currency (the shop's default when it names none)", async () => {
    const { service } = await setup();
    const chf = await service.state(ctx, checkout());
    expect(chf.lines.map((l) => [l.id, l.variant_id])).toEqual([['l1', WINE]]);
    expect([chf.currency.code, chf.totals.subtotal, chf.totals.total]).toEqual(['CHF', 4000, 4000]);
    expect((await service.state(ctx, checkout({ currencyId: 'eur' }))).totals.subtotal).toBe(2000);
    expect((await service.state(ctx, checkout({ currencyId: 'gone' }))).currency.code).toBe('CHF');
  });

  it('offers the methods of the shipping country and charges the chosen one only when it is offered there', async () => {
    const { service } = await setup();
    const toCh = { country_code: 'ch' } as Checkout['shippingAddress'];
    const offered = await service.state(ctx, checkout({ shippingAddress: toCh, shippingMethodId: 'post' }));
    expect([offered.shippingCountry, offered.offered.map((m) => m.id), offered.selectedMethod?.id, offered.totals.total]).toEqual([
      'CH',
      ['post'],
      'post',
      4900,
    ]);
    const foreign = await service.state(ctx, checkout({ shippingAddress: toCh, shippingMethodId: 'courier' }));
    expect([foreign.selectedMethod, foreign.totals.total]).toEqual([null, 4000]);
    expect((await service.state(ctx, checkout())).offered.map((m) => m.id)).toEqual(['post', 'courier']);
  });

  it("a code naming an active promotion is that promotion's condition, not a coupon; a coupon that applies is said so", async () => {
    const ten = Object.assign(new DiscountCode(), { code: 'TEN', type: 'value', value: '10', isActive: true, isUsed: false, isInfinite: true });
    Object.assign(ten, { expiryDate: null, currencyId: null, minValue: '0' });
    const { service, prepared } = await setup({ promotionCodes: ['SPRING'], codes: [ten] });
    const spring = await service.state(ctx, checkout({ discountCode: 'SPRING' }));
    expect([spring.totals.couponCode, spring.totals.couponRefusal, prepared[0]]).toEqual([null, null, { codes: ['SPRING'], hasDiscountCode: false }]);
    const coupon = await service.state(ctx, checkout({ discountCode: 'TEN' }));
    expect([coupon.totals.couponCode, coupon.totals.discount, prepared[1]]).toEqual(['TEN', 1000, { codes: [], hasDiscountCode: true }]);
  });

  it('measures the litres the buyer ordered this year for the destination rules: none without an email', async () => {
    const { service, repo, litres } = await setup();
    await service.state(ctx, checkout());
    repo.ordered = [{ variant_id: WINE, quantity: '4' }];
    await service.state(ctx, checkout({ email: 'a@b.ch' }));
    expect(litres).toEqual([null, 3]);
  });
});
