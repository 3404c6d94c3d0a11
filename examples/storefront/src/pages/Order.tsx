import { Link, useSearch } from 'wouter';
import { api, ok, type Order } from '../api/client';
import { couponShare, discountsOf, linePromotions } from '../promotions';
import { useLoad, useShop } from '../store';
import { LinePromotions, PromotionRows, ShippingPromotions, TaxRows } from '../totals';
import { ErrorNote, Loading } from '../ui';

/** The confirmation page: the guest receipt read by order id and hash (also where the payment provider returns). */
export function OrderPage() {
  const { t } = useShop();
  const search = new URLSearchParams(useSearch());
  const id = search.get('order_id') ?? '';
  const hash = search.get('hash') ?? '';
  const { data, error, loading } = useLoad(async () => ok(await api.GET('/api/2026-04-01/orders/{id}', { params: { path: { id }, query: { hash } } })).order, [id, hash]);
  if (loading && !data) return <Loading />;
  if (error || !data) return <ErrorNote error={error} />;
  return (
    <section className="order">
      <h1>{t('thankYou')}</h1>
      <OrderView order={data} />
      <Link href="/">{t('continueShopping')}</Link>
    </section>
  );
}

/** `heading`: h1 where the order is the page (the account's order detail), h2 under the confirmation's h1. */
export function OrderView({ order, heading = 'h2' }: { order: Order; heading?: 'h1' | 'h2' }) {
  const Heading = heading;
  const { t, money, locale } = useShop();
  const a = order.shipping_address;
  const discounts = discountsOf(order);
  const couponDiscount = couponShare(order.discount, discounts);
  return (
    <div className="receipt" data-testid="receipt">
      <Heading data-testid="order-number">{t('orderNumber', { number: order.number ?? order.id })}</Heading>
      <dl className="meta">
        <dt>{t('date')}</dt>
        <dd>{new Date(order.date).toLocaleString(locale)}</dd>
        <dt>{t('status')}</dt>
        <dd>{order.status}</dd>
        <dt>{t('paymentStatus')}</dt>
        <dd data-testid="payment-status">
          {order.payment_type} · {order.payment_status}
        </dd>
      </dl>
      <table>
        <caption className="sr-only">{t('items')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('items')}</th>
            <th scope="col" className="num">
              {t('quantity')}
            </th>
            <th scope="col" className="num">
              {t('total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {order.line_items.map((l) => (
            <tr key={l.id}>
              <td>
                {l.title}
                {/* the bottle size and vintage as the cart showed them */}
                {l.description && <small className="line-description">{l.description}</small>}
                <LinePromotions promotions={linePromotions(l)} currency={order.currency} />
              </td>
              <td className="num">{l.quantity}</td>
              <td className="num">{money(l.line_total, order.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="totals">
        <dt>{t('subtotal')}</dt>
        <dd>{money(order.subtotal, order.currency)}</dd>
        <PromotionRows discounts={discounts} currency={order.currency} />
        {couponDiscount > 0.005 && (
          <>
            <dt>
              {t('discount')} {order.discount_code && <small>({order.discount_code})</small>}
            </dt>
            <dd data-testid="discount">−{money(couponDiscount, order.currency)}</dd>
          </>
        )}
        <dt>
          {order.shipping_method_name ?? t('shipping')}
          <ShippingPromotions discounts={discounts} currency={order.currency} />
        </dt>
        <dd>{money(order.shipping_amount, order.currency)}</dd>
        {!order.price_includes_tax && <TaxRows lines={order.tax_lines} included={false} currency={order.currency} />}
        <dt className="grand">{t('total')}</dt>
        <dd className="grand" data-testid="order-total">
          {money(order.total, order.currency)}
        </dd>
        {order.price_includes_tax && <TaxRows lines={order.tax_lines} included currency={order.currency} />}
      </dl>
      <h3>{t('shippingAddress')}</h3>
      <address>
        {[a.first_name, a.last_name].filter(Boolean).join(' ')}
        <br />
        {[a.street, a.house_number].filter(Boolean).join(' ')}
        <br />
        {[a.zip_code, a.location].filter(Boolean).join(' ')}
        <br />
        {a.country_name}
      </address>
    </div>
  );
}
