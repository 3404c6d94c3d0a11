import { useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { api, nextQuery, ok, type Collection, type Facet, type PriceRange, type Product } from '../api/client';
import { FILTERS, listingQuery, loadListing, PARAM } from '../listing';
import { useLoad, useShop } from '../store';
import { ErrorNote, hideImage, Loading } from '../ui';

const ORDERS = ['created desc', 'price asc', 'price desc', 'title asc', 'rating desc'];

/**
 * The category listing: every filter lives in the page URL (shareable, back button), the first page asks for
 * facets, "more" follows the Link header verbatim.
 */
export function CataloguePage() {
  const { t, money } = useShop();
  const { id: collectionId } = useParams<{ id?: string }>();
  const searchString = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(searchString);

  const query = listingQuery(searchString);
  const listing = useLoad(() => loadListing(collectionId, searchString), [collectionId, searchString]);

  const collections = useLoad(async () => ok(await api.GET('/api/2026-04-01/collections')).collections, []);
  const [more, setMore] = useState<{ products: Product[]; next: string | null } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => setMore(null), [listing.data]);
  useEffect(() => {
    // "first category page interactive": the browser test reads this mark (examples/storefront/README.md)
    if (listing.data && performance.getEntriesByName('storefront:first-products').length === 0) performance.mark('storefront:first-products');
  }, [listing.data]);

  const products = [...(listing.data?.products ?? []), ...(more?.products ?? [])];
  const next = more ? more.next : (listing.data?.next ?? null);

  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const r = collectionId
        ? await api.GET('/api/2026-04-01/collections/{id}/products', { params: { path: { id: collectionId }, query: {} }, querySerializer: () => next })
        : await api.GET('/api/2026-04-01/products', { params: { query: {} }, querySerializer: () => next });
      const data = ok(r);
      setMore({ products: [...(more?.products ?? []), ...data.products], next: nextQuery(r.response) });
    } catch (err) {
      setMoreError(err);
    } finally {
      setLoadingMore(false);
    }
  };

  const update = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(searchString);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') p.delete(k);
      else p.set(k, v);
    }
    const qs = p.toString();
    navigate(`${collectionId ? `/collections/${collectionId}` : '/'}${qs ? `?${qs}` : ''}`, { replace: false });
  };
  const toggle = (param: string, id: string) => {
    const current = (params.get(param) ?? '').split(',').filter(Boolean);
    const nextValues = current.includes(id) ? current.filter((v) => v !== id) : [...current, id];
    update({ [param]: nextValues.join(',') || null });
  };
  const activeFilters = FILTERS.filter((k) => k !== 'q' && params.get(k));
  const collection = collections.data?.find((c) => c.id === collectionId);
  const q = params.get('q');

  return (
    <div className="catalogue">
      <CollectionNav collections={collections.data ?? []} current={collectionId} />
      <div className="listing-head">
        <h1>{q ? `${t('resultsFor')} “${q}”` : (collection?.title ?? t('allWines'))}</h1>
        <label className="sort">
          <span>{t('sortBy')}</span>
          <select value={query.order} onChange={(e) => update({ order: e.target.value })}>
            {(q ? ['relevance', ...ORDERS] : ORDERS).map((o) => (
              <option key={o} value={o}>
                {t(`order.${o}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="listing">
        <details className="sidebar" open={typeof window !== 'undefined' && window.matchMedia('(min-width: 800px)').matches}>
          <summary>
            {t('filters')}
            {activeFilters.length > 0 && ` (${activeFilters.length})`}
          </summary>
          <div className="sidebar-body" aria-label={t('filters')} role="region">
            {activeFilters.length > 0 && (
              <button type="button" className="link" onClick={() => update(Object.fromEntries(activeFilters.map((k) => [k, null])))}>
                {t('clearFilters')}
              </button>
            )}
            <fieldset className="toggles">
              <legend className="sr-only">{t('filters')}</legend>
              <label>
                <input type="checkbox" checked={params.get('available') === 'true'} onChange={(e) => update({ available: e.target.checked ? 'true' : null })} />
                {t('availableOnly')}
              </label>
              <label>
                <input type="checkbox" checked={params.get('on_sale') === 'true'} onChange={(e) => update({ on_sale: e.target.checked ? 'true' : null })} />
                {t('onSaleOnly')}
              </label>
            </fieldset>
            {listing.data && (
              <PriceFilter
                range={listing.data.priceRange}
                min={params.get('price_min')}
                max={params.get('price_max')}
                onChange={(min, max) => update({ price_min: min, price_max: max })}
              />
            )}
            {(listing.data?.facets ?? []).map((facet) => (
              <FacetGroup key={facet.key} facet={facet} param={PARAM[facet.key]} selected={(params.get(PARAM[facet.key]) ?? '').split(',').filter(Boolean)} onToggle={toggle} />
            ))}
          </div>
        </details>
        <section className="results" aria-label={t('results')} aria-busy={listing.loading}>
          <ErrorNote error={listing.error} />
          {listing.loading && !listing.data && <Loading />}
          {listing.data && products.length === 0 && <p className="notice">{t('noResults')}</p>}
          <ul className="grid" data-testid="products">
            {products.map((p) => (
              <ProductCard key={p.id} product={p} money={money} />
            ))}
          </ul>
          <ErrorNote error={moreError} />
          {next && (
            <button type="button" className="more" onClick={() => void loadMore()} disabled={loadingMore}>
              {loadingMore ? t('loading') : t('more')}
            </button>
          )}
        </section>
      </div>
    </div>
  );
}

function CollectionNav({ collections, current }: { collections: Collection[]; current?: string }) {
  const { t } = useShop();
  if (collections.length === 0) return null;
  return (
    <nav className="collections" aria-label={t('collections')}>
      <Link href="/" aria-current={!current ? 'page' : undefined}>
        {t('allWines')}
      </Link>
      {collections.map((c) => (
        <Link key={c.id} href={`/collections/${c.id}`} aria-current={c.id === current ? 'page' : undefined}>
          {c.title}
        </Link>
      ))}
    </nav>
  );
}

const COLLAPSED = 8;

function FacetGroup({ facet, param, selected, onToggle }: { facet: Facet; param: string; selected: string[]; onToggle(param: string, id: string): void }) {
  const { t } = useShop();
  const [all, setAll] = useState(false);
  // selected values first, so a choice never scrolls out of a collapsed list
  const values = [...facet.values].sort((a, b) => Number(selected.includes(b.id)) - Number(selected.includes(a.id)));
  const shown = all ? values : values.slice(0, COLLAPSED);
  return (
    <fieldset className="facet" data-facet={facet.key}>
      <legend>{t(`facet.${facet.key}`)}</legend>
      <ul>
        {shown.map((v) => (
          <li key={v.id}>
            <label>
              <input type="checkbox" checked={selected.includes(v.id)} onChange={() => onToggle(param, v.id)} />
              <span className="facet-name">{v.name ?? v.value ?? v.id}</span>
              <span className="count" data-testid="count">
                {v.count}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {values.length > COLLAPSED && (
        <button type="button" className="link" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('showFewer') : `${t('showAll')} (${values.length})`}
        </button>
      )}
    </fieldset>
  );
}

/** Two sliders over `price_range` (computed without the price bounds, so the whole range on offer stays visible). */
function PriceFilter({ range, min, max, onChange }: { range: PriceRange; min: string | null; max: string | null; onChange(min: string | null, max: string | null): void }) {
  const { t, money } = useShop();
  const lo = Math.floor(range.min);
  const hi = Math.ceil(range.max);
  const [value, setValue] = useState<[number, number]>([Number(min ?? lo), Number(max ?? hi)]);
  useEffect(() => setValue([Number(min ?? lo), Number(max ?? hi)]), [min, max, lo, hi]);
  if (!(hi > lo)) return null;
  const commit = () => onChange(value[0] > lo ? String(value[0]) : null, value[1] < hi ? String(value[1]) : null);
  const step = hi - lo > 200 ? 5 : 1;
  return (
    <fieldset className="facet price">
      <legend>{t('price')}</legend>
      <p aria-live="polite">
        {money(value[0], range.currency)} – {money(value[1], range.currency)}
      </p>
      <label>
        <span className="sr-only">{t('priceFrom')}</span>
        <input
          type="range"
          aria-label={t('priceFrom')}
          min={lo}
          max={hi}
          step={step}
          value={value[0]}
          onChange={(e) => setValue([Math.min(Number(e.target.value), value[1]), value[1]])}
          onPointerUp={commit}
          onKeyUp={commit}
        />
      </label>
      <label>
        <span className="sr-only">{t('priceTo')}</span>
        <input
          type="range"
          aria-label={t('priceTo')}
          min={lo}
          max={hi}
          step={step}
          value={value[1]}
          onChange={(e) => setValue([value[0], Math.max(Number(e.target.value), value[0])])}
          onPointerUp={commit}
          onKeyUp={commit}
        />
      </label>
    </fieldset>
  );
}

function ProductCard({ product: p, money }: { product: Product; money(a: number, c: string): string }) {
  const { t, cart } = useShop();
  // the list's price_min is gross; a shop showing net prices gets its cheapest listed variant's net price
  const net = cart?.show_net_prices && p.variants.length > 0 ? Math.min(...p.variants.map((v) => v.net_price)) : null;
  const onSale = p.variants.some((v) => v.compare_at_price > v.price);
  // the regular price of the cheapest variant, struck through when it is reduced
  const cheapest = p.variants.reduce<Product['variants'][number] | null>((a, v) => (a === null || v.price < a.price ? v : a), null);
  const regular = cheapest && cheapest.price === p.price_min && cheapest.compare_at_price > cheapest.price ? cheapest.compare_at_price : null;
  return (
    <li className="card">
      <Link href={`/products/${p.id}`} className="card-link">
        <div className="card-image">
          {p.image && <img src={p.image} alt="" loading="lazy" width={300} height={450} onError={hideImage} />}
          {p.flag.name && (
            <span className="flag" style={{ background: p.flag.color ?? '#5b1a2e' }}>
              {p.flag.name}
            </span>
          )}
          {onSale && <span className="flag sale">{t('sale')}</span>}
        </div>
        <h2 className="card-title">{p.title}</h2>
      </Link>
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
}
