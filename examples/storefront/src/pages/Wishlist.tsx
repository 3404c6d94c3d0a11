import { Link } from 'wouter';
import { api, ok, type Product } from '../api/client';
import { useAccountT } from '../account-i18n';
import { useLoad, useShop } from '../store';
import { ErrorNote, hideImage, Loading } from '../ui';
import { setSaved, useWishlist } from '../wishlist';

/** The saved wines (visitor's or shopper's), newest first, each removable. */
export function WishlistPage() {
  const t = useAccountT();
  const { money, signedIn } = useShop();
  const { count } = useWishlist();
  // read again when a heart elsewhere (or here) changes the count
  const list = useLoad(async () => ok(await api.GET('/api/2026-04-01/wishlist', { params: { query: { limit: '250' } } })).wishlist, [count, signedIn]);
  const items = list.data?.items ?? [];
  return (
    <section className="wishlist">
      <h1>{t('wishlist')}</h1>
      {list.loading && !list.data && <Loading />}
      <ErrorNote error={list.error} />
      {list.data && items.length === 0 && <p data-testid="wishlist-empty">{t('wishlistEmpty')}</p>}
      {items.length > 0 && (
        <>
          <p role="status">{items.length === 1 ? t('wishlistCountOne') : t('wishlistCount', { count: items.length })}</p>
          <ul className="wishlist-items" data-testid="wishlist-items">
            {items.map(({ product_id, product }) => {
              const p = product as unknown as Product;
              return (
                <li key={product_id}>
                  <div className="line-image">{p.image && <img src={p.image} alt="" width={56} height={84} onError={hideImage} />}</div>
                  <div className="grow">
                    <p>
                      <Link href={`/products/${product_id}`}>{p.title}</Link>
                    </p>
                    <p className="card-maker">{p.manufacturer?.name}</p>
                    <p>
                      {p.price_min !== p.price_max && `${t('from')} `}
                      {money(p.price_min, p.currency)}
                    </p>
                  </div>
                  <button type="button" onClick={() => void setSaved(product_id, false).then(list.reload, () => undefined)}>
                    {t('remove')}
                    <span className="sr-only"> {p.title}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {!signedIn && (
        <p>
          {t('wishlistSignInHint')} <Link href="/account/sign-in">{t('signIn')}</Link>
        </p>
      )}
    </section>
  );
}
