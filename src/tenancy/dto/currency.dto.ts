import type { Currency } from '../entities/currency.entity.js';

export class StorefrontCurrencyDto {
  id: string;
  /** ISO 4217. */
  code: string;
  name: string;
  symbol: string | null;
  is_default: boolean;
}

export function mapCurrency(c: Currency): StorefrontCurrencyDto {
  return { id: c.id, code: c.code, name: c.name, symbol: c.symbol, is_default: c.isDefault };
}
