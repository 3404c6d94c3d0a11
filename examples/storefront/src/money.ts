// Prices as Intl.NumberFormat writes them, without Intl for the usual currencies. The first Intl.NumberFormat of a page
// loads ICU's number data: one task of 70-200 ms on a phone-speed CPU (4× throttled), which cannot be split and fell
// in the listing's first render (README "Throttled budgets"). The currencies below are written by hand in exactly
// ICU's words for the app's two number locales (en-CH, de-CH: `CHF 1'234.50` with a no-break space, `CHF-5.00`); src/money.spec.ts
// compares them with Intl, and the throttled browser test compares a card's price with the browser's own Intl.

/** Currency symbol per number locale, for the currencies whose pattern is `¤ #'##0.00` / `¤-#'##0.00` there. */
const SYMBOLS: Record<string, Partial<Record<string, string>>> = {
  'en-CH': { CHF: 'CHF', USD: 'US$', GBP: '£' },
  'de-CH': { CHF: 'CHF', EUR: 'EUR', USD: '$', GBP: '£' },
};
/** Beyond this the cents would not be exact in a double: Intl writes it. */
const LIMIT = 1e13;

const formatters = new Map<string, Intl.NumberFormat>();

/** `amount` (major units) in `currency` as `numberLocale` (`en-CH`, `de-CH`) writes it: 2 decimals, rounded half up. */
export function formatCurrency(amount: number, currency: string, numberLocale: string): string {
  const symbol = SYMBOLS[numberLocale]?.[currency];
  const digits = symbol === undefined ? null : String(Math.abs(amount));
  if (symbol !== undefined && digits !== null && Math.abs(amount) < LIMIT && /^\d+(\.\d+)?$/.test(digits)) {
    // rounded on the shortest decimal form (as ICU does: 1.005 → 1.01), in whole cents
    const [whole, fraction = ''] = digits.split('.');
    const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0')) + (fraction.charCodeAt(2) >= 53 ? 1 : 0);
    const units = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, "'");
    const sign = amount < 0 || Object.is(amount, -0) ? '-' : '\u00a0';
    return `${symbol}${sign}${units}.${String(cents % 100).padStart(2, '0')}`;
  }
  try {
    const key = `${numberLocale} ${currency}`;
    let format = formatters.get(key);
    if (!format) formatters.set(key, (format = new Intl.NumberFormat(numberLocale, { style: 'currency', currency })));
    return format.format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}
