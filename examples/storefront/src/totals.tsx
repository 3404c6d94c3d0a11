// Rows shared by the cart, the checkout summary and the receipt: tax lines by rate (issue 31) and discounts by
// promotion (issue 32), inside a <dl className="totals">.
import type { Schemas } from './api/client';
import { formatPercent, type Translate } from './i18n';
import type { LinePromotion, PromotionDiscount } from './promotions';
import { useShop } from './store';

type TaxLine = Schemas['TaxLineDto'];

/** The engine's names: `Tax 8.1%` (origin rates), `Tax 20% France` (a destination zone), `Excise duty`. */
const EXCISE = 'Excise duty';
const ENGINE_NAME = /^Tax (\d+(?:\.\d+)?)%\s*(.*)$/;

/**
 * One label per tax line, the rate written once: "incl. VAT 8.1 %" where prices include tax, "VAT 19 %" where it is
 * added, the zone after a dot ("incl. VAT 20 % · France"), "Excise duty" for excise. A name the engine did not make
 * (an external tax service's) is kept, with the rate added only when the name has none.
 */
export function taxLabel(line: TaxLine, included: boolean, t: Translate, locale: string): string {
  if (line.name === EXCISE && line.rate === 0) return t('excise');
  const m = ENGINE_NAME.exec(line.name);
  const rate = formatPercent(line.rate, locale);
  if (!m) return line.name.includes('%') ? line.name : `${line.name} ${rate}`;
  const vat = t(included ? 'vatIncluded' : 'vatAdded', { rate });
  return m[2] ? `${vat} · ${m[2]}` : vat;
}

export function TaxRows({ lines, included, currency }: { lines: TaxLine[]; included: boolean; currency: string }) {
  const { t, locale, money } = useShop();
  return (
    <>
      {lines.map((l) => (
        <div key={`${l.name}-${l.rate}`} className="tax" data-testid="tax-line">
          <dt>{taxLabel(l, included, t, locale)}</dt>
          <dd>{money(l.amount, currency)}</dd>
        </div>
      ))}
    </>
  );
}

/**
 * A row per promotion (`discounts[]`) with its part off the lines (inside the discount total); a shipping
 * promotion's part is already off the shipping price and shows next to it (`ShippingPromotions`).
 */
export function PromotionRows({ discounts, currency }: { discounts: PromotionDiscount[]; currency: string }) {
  const { money } = useShop();
  return (
    <>
      {discounts
        .filter((d) => d.lines_amount > 0)
        .map((d) => (
          <div key={d.promotion_id} className="promotion-row" data-testid="promotion-discount">
            <dt>{d.name}</dt>
            <dd>−{money(d.lines_amount, currency)}</dd>
          </div>
        ))}
    </>
  );
}

/** What promotions took off the shipping price, beside the shipping row (whose amount is after them). */
export function ShippingPromotions({ discounts, currency }: { discounts: PromotionDiscount[]; currency: string }) {
  const { money } = useShop();
  const shipping = discounts.filter((d) => d.shipping_amount > 0);
  if (shipping.length === 0) return null;
  return (
    <small className="shipping-promotions" data-testid="shipping-promotion">
      {' '}
      ({shipping.map((d) => `${d.name}: −${money(d.shipping_amount, currency)}`).join(', ')})
    </small>
  );
}

/** The promotions of one line, under its title. */
export function LinePromotions({ promotions, currency }: { promotions: LinePromotion[]; currency: string }) {
  const { money } = useShop();
  if (promotions.length === 0) return null;
  return (
    <ul className="line-promotions" data-testid="line-promotions">
      {promotions.map((p) => (
        <li key={p.promotion_id}>
          {p.name}: −{money(p.amount, currency)}
        </li>
      ))}
    </ul>
  );
}
