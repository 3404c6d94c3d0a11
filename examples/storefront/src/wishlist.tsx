// The wishlist (API `/wishlist`): which products the visitor or the signed-in shopper saved, shared by every heart
// on the page. It belongs to the request's owner like the cart: the visitor cookie, or the shopper token after sign-in
// (the API carries the visitor's saved products over at sign-in), so it is read again whenever that changes.
import { useEffect, useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import { api, ok, session, type Schemas } from './api/client';
import { useShop } from './store';
import './wishlist.css';

type Wishlist = Schemas['WishlistDto'];

const PAGE = 250;
let saved = new Set<string>();
let count = 0;
let owner: string | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();
let version = 0;

function publish(ids: Set<string>, itemCount: number): void {
  saved = ids;
  count = itemCount;
  version += 1;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every saved product id, page by page (the API answers at most 250 a page). */
async function readAll(): Promise<void> {
  const ids = new Set<string>();
  let total = 0;
  for (let offset = 0; ; offset += PAGE) {
    const w = ok(await api.GET('/api/2026-04-01/wishlist', { params: { query: { limit: String(PAGE), offset: String(offset) } } })).wishlist;
    w.items.forEach((i) => ids.add(i.product_id));
    total = w.item_count;
    if (w.items.length < PAGE) break;
  }
  publish(ids, total);
}

/** Reads the wishlist when its owner (visitor or shopper) is not the one read last. */
function ensureLoaded(): void {
  const who = session.customerToken ?? 'visitor';
  if (owner === who) return;
  owner = who;
  loading = readAll().catch(() => {
    owner = null;
  });
}

/** After a change: the API's answer holds the count; the ids change by the one product. */
function applied(w: Wishlist, productId: string, on: boolean): void {
  const ids = new Set(saved);
  if (on) ids.add(productId);
  else ids.delete(productId);
  publish(ids, w.item_count);
}

export async function setSaved(productId: string, on: boolean): Promise<void> {
  await loading;
  const w = on
    ? ok(await api.POST('/api/2026-04-01/wishlist/items', { body: { product_id: productId } })).wishlist
    : ok(await api.DELETE('/api/2026-04-01/wishlist/items/{id}', { params: { path: { id: productId } } })).wishlist;
  applied(w, productId, on);
}

/** The saved ids and count, read again after sign-in and sign-out. */
export function useWishlist(): { has(id: string): boolean; count: number } {
  const { signedIn } = useShop();
  useSyncExternalStore(subscribe, () => version);
  useEffect(() => {
    // after the first listing page: the hearts are not what a visitor waits for
    const timer = setTimeout(ensureLoaded, 0);
    return () => clearTimeout(timer);
  }, [signedIn]);
  return { has: (id) => saved.has(id), count };
}

const HEART = 'M12 21s-7.5-4.6-9.6-9.2C.9 8.4 2.9 4.5 6.6 4.5c2.2 0 3.8 1.3 5.4 3.2 1.6-1.9 3.2-3.2 5.4-3.2 3.7 0 5.7 3.9 4.2 7.3C19.5 16.4 12 21 12 21z';

const LABELS = {
  en: { add: 'Save {name} to the wishlist', remove: 'Remove {name} from the wishlist', wishlist: 'Wishlist' },
  de: { add: '{name} auf die Merkliste setzen', remove: '{name} von der Merkliste entfernen', wishlist: 'Merkliste' },
};
export const wishlistLabels = (locale: string) => (locale === 'de' ? LABELS.de : LABELS.en);

/** A heart toggling one product on the wishlist (`aria-pressed`); `className` places it (card or product page). */
export function WishlistHeart({ productId, name, className }: { productId: string; name: string; className?: string }) {
  const { locale } = useShop();
  const { has } = useWishlist();
  const on = has(productId);
  const labels = wishlistLabels(locale);
  return (
    <button
      type="button"
      className={`heart ${className ?? ''}`}
      aria-pressed={on}
      aria-label={(on ? labels.remove : labels.add).replace('{name}', name)}
      data-testid="wishlist-heart"
      onClick={() => void setSaved(productId, !on).catch(() => undefined)}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
        <path d={HEART} />
      </svg>
    </button>
  );
}

/** The header's link to the wishlist page, with the count of saved wines. */
export function WishlistLink() {
  const { locale } = useShop();
  const { count: n } = useWishlist();
  const label = wishlistLabels(locale).wishlist;
  return (
    <Link href="/wishlist" className="wishlist-link">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
        <path d={HEART} />
      </svg>
      <span className="wishlist-label">{label}</span>{' '}
      <span className="badge" data-testid="wishlist-count">
        {n}
      </span>
    </Link>
  );
}
