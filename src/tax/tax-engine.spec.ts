import { describe, expect, it } from '@jest/globals';
import { mulberry32 } from '../catalogue/import/demo-catalogue.js';
import type { CatalogueLine, CouponInput } from '../pricing/index.js';
import type { ZoneRow } from './tax.repository.js';
import {
  computeTaxedTotals,
  EXCISE_LINE_NAME,
  exciseOf,
  rateOn,
  repriceLine,
  type TaxRateRow,
  type TaxRules,
  type TaxSettings,
  type VariantTax,
} from './tax-engine.js';

const EUR = { id: 'eur', code: 'EUR', rate: '1', precision: 2, isDefault: true };
const zone = (id: string, name: string, countries: string[]): ZoneRow => ({ id, key: id, name, countries, regions: [], postcodes: [] });
const ZONES = [zone('z-de', 'DE', ['DE']), zone('z-fr', 'FR', ['FR']), zone('z-it', 'IT', ['IT']), zone('z-ch', 'CH', ['CH'])];
const CATEGORIES = [
  { id: 'c-wine', key: 'wine', name: 'Wine', excise_class: 'still' as const },
  { id: 'c-spk', key: 'sparkling', name: 'Sparkling', excise_class: 'sparkling' as const },
  { id: 'c-food', key: 'food', name: 'Food', excise_class: null },
  { id: 'c-spi', key: 'spirits', name: 'Spirits', excise_class: 'spirits' as const },
];
const rate = (category_id: string, zone_id: string, r: string, excise = '0', valid_from: string | null = null, valid_to: string | null = null): TaxRateRow => ({
  id: `${category_id}-${zone_id}-${valid_from}`,
  category_id,
  zone_id,
  rate: r,
  excise_per_hl: excise,
  valid_from,
  valid_to,
});
const RATES: TaxRateRow[] = [
  rate('c-wine', 'z-de', '19'),
  rate('c-spk', 'z-de', '19', '136'),
  rate('c-food', 'z-de', '7'),
  rate('c-spi', 'z-de', '19', '1303'),
  rate('c-wine', 'z-fr', '20', '4.10'),
  rate('c-spk', 'z-fr', '20', '10.15'),
  rate('c-food', 'z-fr', '5.5'),
  rate('c-spi', 'z-fr', '20', '1844.47'),
  rate('c-wine', 'z-it', '22'),
  rate('c-spk', 'z-it', '22'),
  rate('c-food', 'z-it', '10'),
  rate('c-spi', 'z-it', '22', '1035.52'),
  rate('c-wine', 'z-ch', '8.1'),
  rate('c-spk', 'z-ch', '8.1'),
  rate('c-food', 'z-ch', '2.6'),
  rate('c-spi', 'z-ch', '8.1', '2900'),
];
const rules = (settings: Partial<TaxSettings> = {}, rates = RATES): TaxRules => ({
  settings: { mode: 'destination', gross_price_policy: 'constant', excise_display: 'included', ...settings },
  zones: ZONES,
  categories: CATEGORIES,
  rates,
});
const line = (variantId: string, gross: string, net: string, quantity: number, taxRate = 19): CatalogueLine => ({
  variantId,
  productId: `p-${variantId}`,
  quantity,
  gross,
  net,
  taxRate,
  grams: 1300,
});
const base = {
  currency: EUR,
  couponCode: null,
  coupon: null,
  defaultCurrencyId: 'eur',
  shipping: null,
  day: '2026-06-01',
};

describe('rateOn', () => {
  const periods = [
    rate('c', 'z', '19', '0', null, '2026-06-30'),
    rate('c', 'z', '16', '0', '2026-07-01', '2026-12-31'),
    rate('c', 'z', '21', '0', '2027-01-01'),
  ];
  it('picks the rate valid on the day; none outside every period', () => {
    expect(rateOn(periods, 'c', 'z', '2026-06-30')?.rate).toBe('19');
    expect(rateOn(periods, 'c', 'z', '2026-07-01')?.rate).toBe('16');
    expect(rateOn(periods, 'c', 'z', '2027-03-01')?.rate).toBe('21');
    expect(rateOn(periods, 'c', 'other', '2026-07-01')).toBeNull();
    expect(rateOn([rate('c', 'z', '5', '0', '2030-01-01')], 'c', 'z', '2026-01-01')).toBeNull();
  });
});

describe('repriceLine', () => {
  const l = line('v', '11.90', '10.00', 1);
  it('constant keeps the gross, recompute and the net basis keep the net', () => {
    expect(repriceLine(l, 20, true, 'constant')).toMatchObject({ gross: '11.90', net: '9.9167', taxRate: 20 });
    expect(repriceLine(l, 20, true, 'recompute')).toMatchObject({ gross: '12.0000', net: '10.00', taxRate: 20 });
    expect(repriceLine(l, 8.1, false, 'constant')).toMatchObject({ gross: '10.8100', net: '10.00', taxRate: 8.1 });
  });
});

describe('exciseOf', () => {
  it('per hectolitre of product, or of pure alcohol for spirits; zero without class or volume', () => {
    // 6 x 0.75 l sparkling at 136.00/hl = 4.5 l = 0.045 hl -> 6.12
    expect(exciseOf('136', 'sparkling', 6, { volumeMl: 750, alcoholVolume: 12 }, EUR)).toBe(612);
    // 2 x 0.7 l spirits at 40 % and 1303/hl pure alcohol: 1.4 l x 0.4 = 0.0056 hl -> 7.2968 -> 7.30
    expect(exciseOf('1303', 'spirits', 2, { volumeMl: 700, alcoholVolume: 40 }, EUR)).toBe(730);
    expect(exciseOf('136', null, 6, { volumeMl: 750, alcoholVolume: 12 }, EUR)).toBe(0);
    expect(exciseOf('136', 'sparkling', 6, { volumeMl: null, alcoholVolume: 12 }, EUR)).toBe(0);
    expect(exciseOf('136', 'sparkling', 6, { volumeMl: 750, alcoholVolume: 12 }, { rate: '0.95', precision: 2 })).toBe(581);
  });
});

describe('computeTaxedTotals', () => {
  const variants = new Map<string, VariantTax>([
    ['wine', { categoryId: 'c-wine', volumeMl: 750, alcoholVolume: 13 }],
    ['spk', { categoryId: 'c-spk', volumeMl: 750, alcoholVolume: 12 }],
    ['plain', { categoryId: null, volumeMl: null, alcoholVolume: null }],
  ]);
  const lines = [line('wine', '11.90', '10.00', 2), line('spk', '23.80', '20.00', 6), line('plain', '5.00', '4.20', 1)];

  it('France, gross shop, constant: shelf prices kept, French VAT and excise; unknown destination keeps origin rates', () => {
    const t = computeTaxedTotals(rules(), { ...base, lines, pricesIncludeTax: true, destination: { country: 'FR' }, variants });
    expect(t.subtotal).toBe(2380 + 14280 + 500);
    // wine+sparkling at 20 %: 16660 x 20/120 = 2776.67 -> 2777; plain at its own 19 %: 500 x 19/119 = 79.83 -> 80
    // excise: wine 2 x 0.0075 hl x 4.10 = 0.0615 -> 0.06; sparkling 6 x 0.0075 x 10.15 = 0.45675 -> 0.46
    expect(t.taxLines).toEqual([
      { name: 'Tax 19% FR', rate: 19, amount: 80 },
      { name: 'Tax 20% FR', rate: 20, amount: 2777 },
      { name: EXCISE_LINE_NAME, rate: 0, amount: 52 },
    ]);
    expect(t.taxAmount).toBe(80 + 2777 + 52);
    expect(t.total).toBe(17160 + 52);
    expect(t.lineTaxes.map((l) => [l.category, l.zone, l.rate, l.excise])).toEqual([
      ['wine', 'FR', 20, 6],
      ['sparkling', 'FR', 20, 46],
      [null, null, 19, 0],
    ]);
    const nowhere = computeTaxedTotals(rules(), { ...base, lines, pricesIncludeTax: true, destination: { country: 'US' }, variants });
    expect(nowhere.taxZone).toBeNull();
    expect(nowhere.taxLines).toEqual([{ name: 'Tax 19%', rate: 19, amount: Math.round((17160 * 19) / 119) }]);
  });

  it('recompute keeps the net: the gross follows the destination rate; separate excise stays out of tax_amount', () => {
    const t = computeTaxedTotals(rules({ gross_price_policy: 'recompute', excise_display: 'separate' }), {
      ...base,
      lines,
      pricesIncludeTax: true,
      destination: { country: 'CH' },
      variants,
    });
    // wine: 10.00 x 1.081 = 10.81 x 2; sparkling: 20.00 x 1.081 = 21.62 x 6
    expect(t.lines.map((l) => l.unitGross)).toEqual([1081, 2162, 500]);
    expect(t.taxLines.map((l) => l.name)).toEqual(['Tax 8.1% CH', 'Tax 19% CH']);
    expect(t.exciseAmount).toBe(0);
    const fr = computeTaxedTotals(rules({ excise_display: 'separate' }), { ...base, lines, pricesIncludeTax: true, destination: { country: 'FR' }, variants });
    expect(fr.exciseAmount).toBe(52);
    expect(fr.taxLines.some((l) => l.name === EXCISE_LINE_NAME)).toBe(false);
    expect(fr.taxAmount).toBe(fr.taxLines.reduce((a, l) => a + l.amount, 0));
    expect(fr.total).toBe(17160 + 52);
  });

  it('a rate change applies from its day', () => {
    const periods = [
      ...RATES.filter((r) => !(r.category_id === 'c-wine' && r.zone_id === 'z-de')),
      rate('c-wine', 'z-de', '19', '0', null, '2026-06-30'),
      rate('c-wine', 'z-de', '16', '0', '2026-07-01'),
    ];
    const one = [line('wine', '11.90', '10.00', 1)];
    const before = computeTaxedTotals(rules({}, periods), {
      ...base,
      day: '2026-06-30',
      lines: one,
      pricesIncludeTax: false,
      destination: { country: 'DE' },
      variants,
    });
    const after = computeTaxedTotals(rules({}, periods), {
      ...base,
      day: '2026-07-01',
      lines: one,
      pricesIncludeTax: false,
      destination: { country: 'DE' },
      variants,
    });
    expect(before.taxLines).toEqual([{ name: 'Tax 19% DE', rate: 19, amount: 190 }]);
    expect(after.taxLines).toEqual([{ name: 'Tax 16% DE', rate: 16, amount: 160 }]);
    expect(after.total).toBe(1160);
  });

  it('shipping takes the shipping category rate, else the highest line rate', () => {
    const shipping = { name: 'Post', price: '12.00', taxRate: 8.1, freeOver: null };
    const t = computeTaxedTotals(rules(), {
      ...base,
      shipping,
      lines: [line('wine', '11.90', '10.00', 1)],
      pricesIncludeTax: false,
      destination: { country: 'IT' },
      variants,
    });
    expect(t.shippingTaxRate).toBe(22);
    const withCategory: TaxRules = {
      ...rules(),
      categories: [...CATEGORIES, { id: 'c-ship', key: 'shipping', name: 'Shipping', excise_class: null }],
      rates: [...RATES, rate('c-ship', 'z-it', '10')],
    };
    const s = computeTaxedTotals(withCategory, {
      ...base,
      shipping,
      lines: [line('wine', '11.90', '10.00', 1)],
      pricesIncludeTax: false,
      destination: { country: 'IT' },
      variants,
    });
    expect(s.shippingTaxRate).toBe(10);
    expect(s.taxLines).toEqual([
      { name: 'Tax 10% IT', rate: 10, amount: 120 },
      { name: 'Tax 22% IT', rate: 22, amount: 220 },
    ]);
  });
});

describe('property: 3,000 random carts', () => {
  it('tax lines sum to tax_amount, total is the sum of its parts, nothing negative, rounding within a unit per line, constant gross is the same everywhere', () => {
    const rand = mulberry32(31);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const failures: string[] = [];
    const destinations = ['DE', 'FR', 'IT', 'CH', 'US'];
    for (let i = 0; i < 3_000 && failures.length < 5; i++) {
      const pricesIncludeTax = rand() < 0.5;
      const policy = pick(['constant', 'recompute'] as const);
      const display = pick(['included', 'separate'] as const);
      const variants = new Map<string, VariantTax>();
      const lines: CatalogueLine[] = [];
      const n = 1 + Math.floor(rand() * 8);
      for (let j = 0; j < n; j++) {
        const id = `v${j}`;
        const origin = pick([0, 2.6, 7, 8.1, 19]);
        const net = Math.floor(rand() * 20000) + 1;
        const gross = Math.round((net * (100 + origin)) / 100);
        variants.set(id, {
          categoryId: rand() < 0.85 ? pick(CATEGORIES).id : null,
          volumeMl: rand() < 0.8 ? pick([187.5, 375, 500, 700, 750, 1500]) : null,
          alcoholVolume: rand() < 0.9 ? Math.round(rand() * 450) / 10 : null,
        });
        lines.push(line(id, (gross / 100).toFixed(2), (net / 100).toFixed(2), pick([1, 1, 2, 3, 6, 12, 0.5, 1.25]), origin));
      }
      const coupon: CouponInput | null =
        rand() < 0.3
          ? {
              code: 'C',
              type: rand() < 0.5 ? 'percent' : 'value',
              value: String(1 + Math.floor(rand() * 60)),
              isActive: true,
              isUsed: false,
              isInfinite: true,
              expiryDate: null,
              currencyId: null,
              minValue: '0',
            }
          : null;
      const shipping =
        rand() < 0.7
          ? { name: 'Post', price: (Math.floor(rand() * 3000) / 100).toFixed(2), taxRate: pick([0, 8.1, 19]), freeOver: rand() < 0.3 ? '100' : null }
          : null;
      const currency = rand() < 0.7 ? EUR : { id: 'chf', code: 'CHF', rate: '0.9412', precision: 2, isDefault: false };
      // half the carts in zones whose VAT base includes the excise (issue 31: EU, CH, NO, UK law)
      const inBase = rand() < 0.5;
      const shop = { ...rules({ gross_price_policy: policy, excise_display: display }), zones: ZONES.map((z) => ({ ...z, excise_in_vat_base: inBase })) };
      const input = { ...base, currency, lines, pricesIncludeTax, coupon, couponCode: coupon ? 'C' : null, shipping, variants };
      const grossTotals = new Set<number>();
      for (const country of destinations) {
        const t = computeTaxedTotals(shop, { ...input, destination: { country } });
        const where = `cart ${i} to ${country}`;
        const sum = t.taxLines.reduce((a, l) => a + l.amount, 0);
        if (sum !== t.taxAmount) failures.push(`${where}: tax lines ${sum} != tax_amount ${t.taxAmount}`);
        const vat = t.taxAmount - (display === 'included' ? t.exciseAmount : 0);
        const parts = t.subtotal + t.shippingAmount + (pricesIncludeTax ? t.exciseTaxAmount : vat) + t.exciseAmount;
        if (!inBase && t.exciseTaxAmount !== 0) failures.push(`${where}: VAT on excise outside the VAT base`);
        for (const l of t.lineTaxes)
          if (Math.abs(l.exciseTax - (inBase ? (l.excise * l.rate) / 100 : 0)) > 0.5)
            failures.push(`${where}: VAT on excise ${l.exciseTax} of ${l.excise} at ${l.rate} %`);
        if (t.total !== parts) failures.push(`${where}: total ${t.total} != parts ${parts}`);
        if (t.subtotal !== t.subtotalBeforeDiscount - t.discount) failures.push(`${where}: subtotal`);
        const amounts = [
          t.total,
          t.subtotal,
          t.discount,
          t.shippingAmount,
          t.taxAmount,
          t.exciseAmount,
          ...t.taxLines.map((l) => l.amount),
          ...t.lines.map((l) => l.line),
        ];
        if (amounts.some((a) => a < 0 || !Number.isInteger(a))) failures.push(`${where}: negative or fractional amount ${JSON.stringify(amounts)}`);
        // exact VAT of the charged (rounded) lines, the discount spread exactly pro rata, and the shipping
        const byRate = new Map<number, number>();
        const linesSum = t.lines.reduce((a, l) => a + l.line, 0);
        for (const l of t.lines) byRate.set(l.taxRate, (byRate.get(l.taxRate) ?? 0) + l.line - (linesSum ? (t.discount * l.line) / linesSum : 0));
        if (t.shippingAmount) byRate.set(t.shippingTaxRate, (byRate.get(t.shippingTaxRate) ?? 0) + t.shippingAmount);
        let exact = 0;
        for (const [r, amount] of byRate) exact += pricesIncludeTax ? (amount * r) / (100 + r) : (amount * r) / 100;
        // the VAT on the excise is the lines' excise at their rate, rounded once per line
        if (Math.abs(vat - t.exciseTaxAmount - exact) > t.lines.length + 1) failures.push(`${where}: VAT ${vat} is more than a unit per line from ${exact}`);
        if (pricesIncludeTax && policy === 'constant') grossTotals.add(t.total - t.exciseAmount - t.exciseTaxAmount);
      }
      if (grossTotals.size > 1) failures.push(`cart ${i}: constant gross totals differ by destination: ${[...grossTotals].join(', ')}`);
    }
    expect(failures).toEqual([]);
  });
});
