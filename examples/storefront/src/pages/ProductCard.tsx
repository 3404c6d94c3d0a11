import { memo } from 'react';
import { Link } from 'wouter';
import type { Product } from '../api/client';
import { useShop } from '../store';
import { hideImage, textOn } from '../ui';
import { productHref } from '../urls';
import { WishlistHeart } from '../wishlist';

/**
 * A product in a grid (listing, home page, related wines): image, flags, title, producer, price, stock. Memoized: a
 * listing rendering in steps (src/stepwise.ts) does not render its earlier cards again.
 */
export const ProductCard = memo(function ProductCard({ product: p, money }: { product: Product; money(a: number, c: string): string }) {
  const { t, cart } = useShop();
  // the list's price_min is gross; a shop showing net prices gets its cheapest listed variant's net price
  const net = cart?.show_net_prices && p.variants.length > 0 ? Math.min(...p.variants.map((v) => v.net_price)) : null;
  const onSale = p.variants.some((v) => v.compare_at_price > v.price);
  // the regular price of the cheapest variant, struck through when it is reduced
  const cheapest = p.variants.reduce<Product['variants'][number] | null>((a, v) => (a === null || v.price < a.price ? v : a), null);
  const regular = cheapest && cheapest.price === p.price_min && cheapest.compare_at_price > cheapest.price ? cheapest.compare_at_price : null;
  return (
    <li className="card">
      <Link href={productHref(p)} className="card-link">
        <div className="card-image">
          {p.image && <img src={p.image} alt="" loading="lazy" width={300} height={450} onError={hideImage} />}
          {p.flag.name && (
            <span className="flag" style={{ background: p.flag.color ?? '#5b1a2e', color: textOn(p.flag.color ?? '#5b1a2e') }}>
              {p.flag.name}
            </span>
          )}
          {onSale && <span className="flag sale">{t('sale')}</span>}
        </div>
        <h2 className="card-title">{p.title}</h2>
      </Link>
      <WishlistHeart productId={p.id} name={p.title ?? ''} className="on-card" />
      <p className="card-maker">{p.manufacturer.name}</p>
      <p className="card-price">
        {p.price_min !== p.price_max && <span className="from">{t('from')} </span>}
        {regular !== null && net === null && (
          <s className="regular">
            <span className="sr-only">{t('regularPrice')} </span>
            {money(regular, p.currency)}
          </s>
        )}{' '}
        <strong>{money(net ?? p.price_min, p.currency)}</strong>
      </p>
      <p className={p.available ? 'stock in' : 'stock out'}>{p.available ? t('inStock') : t('soldOut')}</p>
    </li>
  );
});
