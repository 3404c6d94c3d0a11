import type { Checkout } from '../../api/client';
import { couponShare, discountsOf, linePromotions } from '../../promotions';
import { useShop } from '../../store';
import { LinePromotions, PromotionRows, ShippingPromotions, TaxRows } from '../../totals';

const EXCISE = 'Excise duty';

/**
 * The checkout's lines and totals as the API answers them: discounts by promotion, the coupon, shipping, the tax
 * lines of the destination by rate (issue 31), what gift cards and store credit pay and the amount due (issue 33).
 */
export function CheckoutTotals({ checkout }: { checkout: Checkout }) {
  const { t, money } = useShop();
  const totals = checkout.totals;
  const currency = totals.currency;
  const included = totals.price_includes_tax;
  const discounts = discountsOf(totals);
  const couponDiscount = couponShare(totals.discount, discounts);
  // with `excise_display: separate` the excise is in `total` but not among the tax lines: its own row
  const separateExcise = (totals.excise_amount ?? 0) > 0 && !totals.tax_lines.some((l) => l.name === EXCISE) ? totals.excise_amount! : 0;
  const policy = totals.gross_price_policy ? t(`policy.${totals.gross_price_policy}`) : totals.tax_zone !== undefined && !included ? t('policy.net') : null;
  return (
    <>
      <ul className="mini-lines">
        {checkout.line_items.map((l) => (
          <li key={l.id}>
            <span>
              {l.quantity} × {l.title}
              <LinePromotions promotions={linePromotions(l)} currency={currency} />
            </span>
            <span>{money(included ? l.line_total_with_tax : l.line_total, currency)}</span>
          </li>
        ))}
      </ul>
      <dl className="totals">
        <dt>{t('subtotal')}</dt>
        <dd>{money(totals.subtotal_before_discount, currency)}</dd>
        <PromotionRows discounts={discounts} currency={currency} />
        {couponDiscount > 0.005 && (
          <>
            <dt>
              {t('discount')} {totals.coupon_text && <small>({totals.coupon_text})</small>}
            </dt>
            <dd data-testid="discount">−{money(couponDiscount, currency)}</dd>
          </>
        )}
        <dt>
          {totals.shipping_method_name ?? t('shipping')}
          <ShippingPromotions discounts={discounts} currency={currency} />
        </dt>
        <dd data-testid="shipping-amount">{money(totals.shipping_amount, currency)}</dd>
        {!included && <TaxRows lines={totals.tax_lines} included={false} currency={currency} />}
        {separateExcise > 0 && (
          <>
            <dt>{t('excise')}</dt>
            <dd>{money(separateExcise, currency)}</dd>
          </>
        )}
        <dt className="grand">
          {t('total')} <small>({included ? t('inclVat') : t('exclVat')})</small>
        </dt>
        <dd className="grand" data-testid="checkout-total">
          {money(totals.total, currency)}
        </dd>
        {/* gross prices: the tax is part of the total, listed under it by rate */}
        {included && <TaxRows lines={totals.tax_lines} included currency={currency} />}
        {(checkout.gift_cards ?? []).map((g) => (
          <div key={g.id} className="paid-by">
            <dt>{g.kind === 'store_credit' ? t('storeCreditLabel') : t('giftCardLabel', { last: g.last_characters ?? '' })}</dt>
            <dd>−{money(g.amount, currency)}</dd>
          </div>
        ))}
        {checkout.amount_due !== undefined && (
          <>
            <dt className="grand">{t('amountDue')}</dt>
            <dd className="grand" data-testid="amount-due">
              {money(checkout.amount_due, currency)}
            </dd>
          </>
        )}
      </dl>
      {(policy || totals.tax_zone) && (
        <p className="tax-note" data-testid="tax-note">
          {totals.tax_zone && <>{t('taxZone', { zone: totals.tax_zone })}. </>}
          {policy}
        </p>
      )}
    </>
  );
}

/** A destination that refuses the order (closed, volume limit), said before payment (`compliance.destination`). */
export function DestinationVerdict({ checkout }: { checkout: Checkout }) {
  const { t } = useShop();
  const verdict = checkout.compliance.destination;
  if (!verdict || verdict.allowed) return null;
  return (
    <div className="error" role="alert" data-testid="destination-refused">
      <p>{t('destinationRefused')}</p>
      <ul>
        {verdict.reasons
          .filter((r) => r.code !== 'age_requirement')
          .map((r) => {
            const text = t(`destination.${r.code}`);
            return <li key={`${r.code}-${r.zone}`}>{text === `destination.${r.code}` ? r.message : text}</li>;
          })}
      </ul>
    </div>
  );
}
