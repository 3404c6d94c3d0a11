import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, ok, type Cart } from '../api/client';
import { availablePromotions, couponShare, discountsOf, giftTarget, linePromotions, suggestedGifts, type SuggestedGift } from '../promotions';
import { useShop } from '../store';
import { LinePromotions, PromotionRows } from '../totals';
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
  const discounts = discountsOf(cart);
  const couponDiscount = couponShare(cart.total_discount, discounts);

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
              <LinePromotions promotions={linePromotions(line)} currency={cart.currency} />
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
      <PromotionHints cart={cart} onAdded={setCart} />
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
          <PromotionRows discounts={discounts} currency={cart.currency} />
          {couponDiscount > 0.005 && (
            <>
              <dt>{t('discount')}</dt>
              <dd data-testid="discount">−{money(couponDiscount, cart.currency)}</dd>
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

/** "Add 2 more bottles for 10% off" (`available_promotions`) and buy-X-get-Y gifts to add (`suggested_gifts`). */
function PromotionHints({ cart, onAdded }: { cart: Cart; onAdded(cart: Cart): void }) {
  const { t, money } = useShop();
  const hints = availablePromotions(cart);
  const gifts = suggestedGifts(cart);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (hints.length === 0 && gifts.length === 0 && !status && !error) return null;
  const addGift = async (gift: SuggestedGift) => {
    setError(null);
    try {
      const target = giftTarget(gift);
      let variantId: string | null = null;
      if (target && 'variant_id' in target) variantId = target.variant_id;
      else if (target) {
        const product = ok(await api.GET('/api/2026-04-01/products/{id}', { params: { path: { id: target.product_id } } })).product;
        variantId = (product.variants.find((v) => v.available) ?? product.variants[0])?.id ?? null;
      }
      if (!variantId) return;
      onAdded(ok(await api.POST('/api/2026-04-01/cart/items', { body: { article_id: variantId, quantity: gift.quantity } })).cart);
      setStatus(t('giftAdded'));
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section className="promo-hints" aria-label={t('promotions')}>
      <ul aria-live="polite">
        {hints.map((h) => (
          <li key={h.promotion_id} data-testid="promotion-hint">
            {h.missing_quantity
              ? t(h.missing_quantity === 1 ? 'addMoreBottle' : 'addMoreBottles', { count: h.missing_quantity, name: h.name })
              : t('addMoreValue', { amount: money(h.missing_amount ?? 0, cart.currency), name: h.name })}
          </li>
        ))}
        {gifts.map((g) => (
          <li key={g.promotion_id} className="gift" data-testid="suggested-gift">
            <span>{t('giftFor', { name: g.name })}</span>{' '}
            {giftTarget(g) && (
              <button type="button" onClick={() => void addGift(g)}>
                {t('addGift')}
                <span className="sr-only"> ({g.name})</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {status && <p role="status">{status}</p>}
      <ErrorNote error={error} />
    </section>
  );
}
