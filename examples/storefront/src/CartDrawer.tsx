import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { Cart } from './api/client';
import { shippingMethods } from './api/shipping';
import { freeShippingProgress, type ShippingMethod } from './free-shipping';
import { availablePromotions } from './promotions';
import { useShop } from './store';

const OPEN_EVENT = 'vinoshop:cart-drawer';

/** Opens the cart drawer (after "Add to cart", or from the header's cart link). */
export const openCartDrawer = () => dispatchEvent(new Event(OPEN_EVENT));

/**
 * What a promotion the cart answer reports (`available_promotions`) still needs, as progress: missing an amount, the
 * subtotal against subtotal + missing; missing bottles, the cart's bottles against bottles + missing.
 */
export function promotionProgress(cart: Pick<Cart, 'items_subtotal_price' | 'item_count'>, p: { missing_amount?: number | null; missing_quantity?: number | null }) {
  if ((p.missing_quantity ?? 0) > 0) return { value: cart.item_count, max: cart.item_count + p.missing_quantity! };
  const missing = p.missing_amount ?? 0;
  return { value: Math.round(cart.items_subtotal_price * 100), max: Math.round((cart.items_subtotal_price + missing) * 100) };
}

/**
 * The cart as a drawer over the page after "Add to cart" (phone: a sheet at the bottom; desktop: a panel at the
 * right): its lines, the subtotal, progress to the promotion thresholds the cart answer reports.
 */
export function CartDrawer() {
  const { t, money, cart, currencies, locale } = useShop();
  const [open, setOpen] = useState(false);
  const [methods, setMethods] = useState<ShippingMethod[]>([]);
  const [location] = useLocation();
  const closeButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const show = () => {
      opener.current = document.activeElement;
      setOpen(true);
    };
    addEventListener(OPEN_EVENT, show);
    return () => removeEventListener(OPEN_EVENT, show);
  }, []);
  useEffect(() => setOpen(false), [location]);
  useEffect(() => {
    if (open) void shippingMethods(locale).then(setMethods);
  }, [open, locale]);
  useEffect(() => {
    if (!open) return;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open]);
  const close = () => {
    setOpen(false);
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };
  if (!open || !cart) return null;
  const hints = availablePromotions(cart);
  // free_over is in the shop's default currency (the API converts it by a rate the storefront API does not publish)
  const inDefault = currencies.some((c) => c.is_default && c.code === cart.currency);
  const free = inDefault && cart.items.length > 0 ? freeShippingProgress(cart.total_price, methods) : null;
  return (
    <>
      {/* not modal: the page and the header's cart link stay usable; Escape, "Close" or any navigation closes it */}
      <aside className="cart-drawer" aria-labelledby="cart-drawer-title" data-testid="cart-drawer">
        <div className="cart-drawer-head">
          <h2 id="cart-drawer-title">{t('cartDrawer')}</h2>
          <button type="button" className="link" ref={closeButton} onClick={close}>
            {t('closeCart')}
          </button>
        </div>
        <div className="cart-drawer-body">
          {free && (
            <div className="progress" data-testid="drawer-free-shipping">
              <p id="progress-free-shipping">
                {free.missing > 0 ? t('toFreeShipping', { amount: money(free.missing, cart.currency), name: free.name }) : t('freeShippingReached', { name: free.name })}
              </p>
              <progress value={free.value} max={free.max} aria-labelledby="progress-free-shipping" />
            </div>
          )}
          {hints.map((h) => {
            const { value, max } = promotionProgress(cart, h);
            const label = h.missing_quantity ? t('toPromotionQty', { count: h.missing_quantity, name: h.name }) : t('toPromotion', { amount: money(h.missing_amount ?? 0, cart.currency), name: h.name });
            return (
              <div key={h.promotion_id} className="progress" data-testid="drawer-promotion">
                <p id={`progress-${h.promotion_id}`}>{label}</p>
                <progress value={value} max={max} aria-labelledby={`progress-${h.promotion_id}`} />
              </div>
            );
          })}
          {cart.items.length === 0 ? (
            <p>{t('cartEmpty')}</p>
          ) : (
            <ul className="lines">
              {cart.items.map((line) => (
                <li key={line.id}>
                  <span>
                    {line.quantity} × {line.title}
                    {line.size && ` · ${line.size}`}
                  </span>
                  <strong>{money(line.line_price, cart.currency)}</strong>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="cart-drawer-foot">
          <p>
            {t('subtotal')}: <strong data-testid="drawer-subtotal">{money(cart.items_subtotal_price, cart.currency)}</strong>
          </p>
          <Link href="/cart" className="button">
            {t('goToCart')}
          </Link>
          {cart.items.length > 0 && (
            <Link href="/checkout" className="button primary">
              {t('toCheckout')}
            </Link>
          )}
        </div>
      </aside>
    </>
  );
}
