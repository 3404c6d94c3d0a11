import { Link } from 'wouter';
import { api, ok, type Collection, type Product } from '../api/client';
import { useLoad, useShop } from '../store';
import { ErrorNote, Loading } from '../ui';
import { collectionHref } from '../urls';
import { ProductCard } from './ProductCard';
import { usePageMeta } from '../seo';
import '../home.css';

const ROW = 4;
const SHOWN_COLLECTIONS = 6;

/** A row of the home page: the first products of a list the API orders (`created desc`: new arrivals; `rating desc`: best rated). */
async function firstProducts(order: 'created desc' | 'rating desc'): Promise<Product[]> {
  return ok(await api.GET('/api/2026-04-01/products', { params: { query: { limit: ROW, order, available: 'true' } } })).products;
}

/**
 * The home page (issue 37): a hero leading to all wines, the shop's collections (`GET /collections`, the most
 * stocked first), new arrivals and the best rated wines (`GET /products` ordered by `created desc` and by
 * `rating desc`, in stock). The API has no order by sales, so "best sellers" are the best rated.
 */
export function HomePage() {
  const { t } = useShop();
  usePageMeta(t('heroText'));
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title" tabIndex={-1}>
          {t('heroTitle')}
        </h1>
        <p>{t('heroText')}</p>
        <Link href="/wines" className="button primary">
          {t('shopAllWines')}
        </Link>
      </section>
      <Collections />
      <ProductRow id="new-arrivals" title={t('newArrivals')} order="created desc" />
      <ProductRow id="best-rated" title={t('bestRated')} order="rating desc" />
    </div>
  );
}

function Collections() {
  const { t } = useShop();
  const list = useLoad(async () => ok(await api.GET('/api/2026-04-01/collections')).collections, []);
  const shown = (list.data ?? [])
    .filter((c) => c.products_count > 0)
    .sort((a, b) => b.products_count - a.products_count)
    .slice(0, SHOWN_COLLECTIONS);
  if (list.error) return <ErrorNote error={list.error} />;
  if (shown.length === 0) return null;
  return (
    <section className="home-row" aria-labelledby="home-collections">
      <h2 id="home-collections">{t('featuredCollections')}</h2>
      <ul className="collection-tiles" data-testid="home-collections">
        {shown.map((c: Collection) => (
          <li key={c.id}>
            <Link href={collectionHref(c)}>
              <strong>{c.title}</strong>
              <span>{t('resultCount', { count: c.products_count })}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProductRow({ id, title, order }: { id: string; title: string; order: 'created desc' | 'rating desc' }) {
  const { t, money } = useShop();
  const products = useLoad(() => firstProducts(order), [order]);
  return (
    <section className="home-row" aria-labelledby={id}>
      <div className="home-row-head">
        <h2 id={id}>{title}</h2>
        <Link href={`/wines?order=${encodeURIComponent(order)}`}>{t('seeAll')}</Link>
      </div>
      {products.error ? (
        <ErrorNote error={products.error} />
      ) : !products.data ? (
        <Loading />
      ) : (
        <ul className="grid small" data-testid={id}>
          {products.data.map((p) => (
            <ProductCard key={p.id} product={p} money={money} />
          ))}
        </ul>
      )}
    </section>
  );
}
