import { describe, expect, it } from '@jest/globals';
import { formatCurrency } from './money';

const intl = (amount: number, currency: string, locale: string) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);

describe('storefront money: prices written without Intl, in exactly its words', () => {
  const pairs = [
    ['en-CH', 'CHF'],
    ['en-CH', 'USD'],
    ['en-CH', 'GBP'],
    ['de-CH', 'CHF'],
    ['de-CH', 'EUR'],
    ['de-CH', 'USD'],
    ['de-CH', 'GBP'],
  ] as const;
  // every 7th cent up to 100.00, thousands and millions, half cents (rounded up, on the decimal form), signs, -0
  const amounts = [
    ...Array.from({ length: 1429 }, (_, i) => (i * 7) / 100),
    ...[999.995, 1000, 1234.5, 12345.67, 123456.78, 1234567.5, 99999999.99, 9999999999.999].flatMap((x) => [x, -x]),
    ...[0.005, 1.005, 12.345, 0.125, 2.675, 0.994, 0.995, 1e-7, 0.00049].flatMap((x) => [x, -x]),
    0,
    -0,
  ];

  it.each(pairs)('%s %s: as Intl.NumberFormat writes it', (locale, currency) => {
    for (const amount of amounts) expect([amount, formatCurrency(amount, currency, locale)]).toEqual([amount, intl(amount, currency, locale)]);
  });

  it('hands other currencies, locales and amounts beyond whole cents in a double to Intl', () => {
    expect(formatCurrency(1234.5, 'EUR', 'en-CH')).toBe(intl(1234.5, 'EUR', 'en-CH')); // `€1,234.50`: another pattern
    expect(formatCurrency(1234.5, 'JPY', 'de-CH')).toBe(intl(1234.5, 'JPY', 'de-CH')); // no decimals
    expect(formatCurrency(1234.5, 'CHF', 'fr-CH')).toBe(intl(1234.5, 'CHF', 'fr-CH'));
    expect(formatCurrency(1e21, 'CHF', 'en-CH')).toBe(intl(1e21, 'CHF', 'en-CH'));
    expect(formatCurrency(1234.5, 'XXXX', 'en-CH')).toBe('XXXX 1234.50'); // not a currency: no throw
  });
});
