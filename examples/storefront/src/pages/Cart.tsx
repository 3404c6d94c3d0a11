import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { useShop } from '../store';
import { ErrorNote, hideImage, Loading } from '../ui';

export function CartPage() {
  const { t, money, cart, setCart, currencies, setCurrency } = useShop();
  const [code, setCode] = useState('');
  const [couponError, setCouponError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  if (!cart) return <Loading />;
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const setQuantity = (id: string, quantity: number) =>
    run(async () => setCart(ok(await api.PUT('/api/2026-04-01/cart/items/{id}', { params: { path: { id } }, body: { quantity } })).cart));
  const remove = (id: string) => run(async () => setCart(ok(await api.DELETE('/api/2026-04-01/cart/items/{id}', { params: { path: { id } } })).cart));
  const applyCoupon = async (e: FormEvent) => {
    e.preventDefault();
    setCouponError(null);
    try {
      setCart(ok(await api.POST('/api/2026-04-01/cart/discount_code', { body: { code: code.trim() } })).cart);
      setCode('');
    } catch (err) {
      setCouponError(err);
    }
  };
  const removeCoupon = () => run(async () => setCart(ok(await api.DELETE('/api/2026-04-01/cart/discount_code')).cart));
  const basis = cart.show_net_prices ? t('exclVat') : t('inclVat');

  if (cart.items.length === 0) {
    return (
      <section className="cart">
        <h1>{t('cart')}</h1>
        <p className="notice">{t('cartEmpty')}</p>
        <Link href="/">{t('continueShopping')}</Link>
      </section>
    );
  }
  return (
    <section className="cart" aria-busy={busy}>
      <div className="listing-head">
        <h1>{t('cart')}</h1>
        {currencies.length > 1 && (
          <label className="sort">
            <span>{t('currency')}</span>
            <select value={cart.currency} onChange={(e) => void run(() => setCurrency(e.target.value))}>
              {currencies.map((c) => (
                <option key={c.id} value={c.code}>
                  {c.code} – {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ErrorNote error={error} />
      <ul className="lines">
        {cart.items.map((line) => (
          <li key={line.id} className="line">
            <span className="line-image">{line.image.src && <img src={line.image.src} alt="" width={60} height={90} loading="lazy" onError={hideImage} />}</span>
            <div className="line-info">
              <Link href={`/products/${line.product_id}`}>{line.title}</Link>
              <small>
                {[line.size, line.year, line.vendor].filter(Boolean).join(' · ')} · {money(line.price, cart.currency)}
              </small>
            </div>
            <label className="line-qty">
              <span className="sr-only">
                {t('quantity')} {line.title}
              </span>
              <input
                type="number"
                min={0}
                defaultValue={line.quantity}
                key={`${line.id}-${line.quantity}`}
                onBlur={(e) => Number(e.target.value) !== line.quantity && void setQuantity(line.id, Number(e.target.value))}
                onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
              />
            </label>
            <span className="line-price">{money(line.line_price, cart.currency)}</span>
            <button type="button" className="link" onClick={() => void remove(line.id)}>
              {t('remove')}
              <span className="sr-only"> {line.title}</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="cart-bottom">
        <form className="coupon" onSubmit={(e) => void applyCoupon(e)}>
          {cart.discount_code ? (
            <p role="status">
              {t('couponApplied', { code: cart.discount_code })}{' '}
              <button type="button" className="link" onClick={() => void removeCoupon()}>
                {t('removeCoupon')}
              </button>
            </p>
          ) : (
            <>
              <label htmlFor="coupon">{t('coupon')}</label>
              <div className="inline">
                <input id="coupon" name="coupon" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" required />
                <button type="submit">{t('applyCoupon')}</button>
              </div>
            </>
          )}
          {cart.discount_code_error && (
            <p className="error" role="alert">
              {t(`coupon.${cart.discount_code_error}`)}
            </p>
          )}
          <ErrorNote error={couponError} prefix="coupon" />
        </form>
        <dl className="totals">
          <dt>{t('subtotal')}</dt>
          <dd>{money(cart.items_subtotal_price, cart.currency)}</dd>
          {cart.total_discount > 0 && (
            <>
              <dt>{t('discount')}</dt>
              <dd data-testid="discount">−{money(cart.total_discount, cart.currency)}</dd>
            </>
          )}
          <dt className="grand">
            {t('total')} <small>({basis})</small>
          </dt>
          <dd className="grand" data-testid="cart-total">
            {money(cart.total_price, cart.currency)}
          </dd>
        </dl>
      </div>
      <p className="actions">
        <Link href="/" className="button">
          {t('continueShopping')}
        </Link>
        <Link href="/checkout" className="button primary">
          {t('toCheckout')}
        </Link>
      </p>
    </section>
  );
}
