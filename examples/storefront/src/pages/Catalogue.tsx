import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { api, ApiError, nextQuery, ok, session, type Collection, type Facet, type PriceRange, type Product } from '../api/client';
import { categoryBySlug } from '../categories';
import { collectionHref, UUID } from '../urls';
import { FILTERS, listingQuery, loadListing, PARAM, restoreListing, resultCount, saveListing, type SavedListing } from '../listing';
import { useLoad, useShop } from '../store';
import { ErrorNote, Loading } from '../ui';
import { DidYouMean } from '../search-box';
import { ProductCard } from './ProductCard';
import { usePageMeta } from '../seo';
import { useStepwise } from '../stepwise';

let collectionsCache: { key: string; list: Collection[] } | null = null;
async function loadCollections(): Promise<Collection[]> {
  const key = session.locale;
  if (collectionsCache?.key !== key) collectionsCache = { key, list: ok(await api.GET('/api/2026-04-01/collections')).collections };
  return collectionsCache.list;
}

/** What a listing URL names: a collection (`/collections/<handle or uuid>`), a category (`/categories/<slug>`) or neither. */
interface Scope {
  collectionId?: string;
  category?: { id: string; name: string };
  /** The search string the API is asked with (a category page adds its `category_id`). */
  search: string;
}
async function resolveScope(collection: string | undefined, category: string | undefined, search: string): Promise<Scope> {
  if (collection !== undefined) {
    if (UUID.test(collection)) return { collectionId: collection, search };
    const found = (await loadCollections()).find((c) => c.handle === collection);
    if (!found) throw new ApiError(404, 'collection not found', null);
    return { collectionId: found.id, search };
  }
  if (category !== undefined) {
    const found = await categoryBySlug(category);
    if (!found) throw new ApiError(404, 'category not found', null);
    const p = new URLSearchParams(search);
    const ids = (p.get('category_id') ?? '').split(',').filter((id) => id && id !== found.id);
    p.set('category_id', [found.id, ...ids].join(','));
    return { category: { id: found.id, name: found.name }, search: p.toString() };
  }
  return { search };
}
const CARDS_PER_STEP = 8;
const FACETS_PER_STEP = 3;
const ORDERS = ['created desc', 'price asc', 'price desc', 'title asc', 'rating desc'];

/**
 * The category listing: every filter lives in the page URL (shareable, back button), the first page asks for
 * facets, "more" follows the Link header verbatim.
 */
export function CataloguePage() {
  const { t, money } = useShop();
  const { id: collectionParam, slug: categorySlug } = useParams<{ id?: string; slug?: string }>();
  const searchString = useSearch();
  const [here, navigate] = useLocation();
  const params = new URLSearchParams(searchString);

  const query = listingQuery(searchString);
  // back or forward: the listing as it was left (pages loaded, scroll position), else the first page from the API
  const restored = useRef<SavedListing | null>(null);
  const scope = useRef<Scope>({ search: searchString });
  const listing = useLoad(async () => {
    const s = await resolveScope(collectionParam, categorySlug, searchString);
    scope.current = s;
    restored.current = restoreListing(s.collectionId, s.search);
    return restored.current ? restored.current.listing : loadListing(s.collectionId, s.search);
  }, [collectionParam, categorySlug, searchString]);
  const { collectionId, category } = scope.current;
  const apiSearch = scope.current.search;

  // kept for the session: a listing restored by back or forward has its menu at once (its scroll position depends on it)
  const collections = useLoad(loadCollections, []);
  // an old `/collections/<uuid>` URL is replaced by the collection's handle URL
  useEffect(() => {
    if (!collectionParam || !UUID.test(collectionParam)) return;
    const c = collections.data?.find((x) => x.id === collectionParam);
    if (c?.handle) navigate(`${collectionHref(c)}${searchString ? `?${searchString}` : ''}`, { replace: true });
  }, [collectionParam, collections.data]);
  const [more, setMore] = useState<{ products: Product[]; next: string | null } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const [drawer, setDrawer] = useState(false);
  useEffect(() => {
    if (!listing.data) return;
    setMore(restored.current?.more ?? null);
    setScrollTo(restored.current?.scrollY ?? null);
    restored.current = null;
  }, [listing.data]);
  useLayoutEffect(() => {
    if (scrollTo === null) return;
    window.scrollTo(0, scrollTo);
    setScrollTo(null);
  }, [scrollTo]);
  // kept up to date while the page is shown; leaving the page (to a product) records the listing as it was
  const position = useRef(0);
  const latest = useRef<{ collectionId?: string; searchString: string; state: Omit<SavedListing, 'scrollY'> } | null>(null);
  if (listing.data && !listing.loading) latest.current = { collectionId, searchString: apiSearch, state: { listing: listing.data, more } };
  useEffect(() => {
    // read on the click that leaves the page (before the next page's layout moves it) and on any scroll
    // (a scroll after the URL changed belongs to the next page: the jump to its top, before this page unmounts)
    const path = location.pathname;
    const record = () => {
      if (location.pathname === path) position.current = window.scrollY;
    };
    addEventListener('scroll', record, { passive: true });
    addEventListener('click', record, true);
    return () => {
      removeEventListener('scroll', record);
      removeEventListener('click', record, true);
      const l = latest.current;
      if (l) saveListing(l.collectionId, l.searchString, { ...l.state, scrollY: position.current });
    };
  }, []);

  const products = [...(listing.data?.products ?? []), ...(more?.products ?? [])];
  // the first listing renders in steps (README "Throttled budgets"): 8 cards a task, then the filters 3 groups a task; the results stay
  // busy until then, marked `data-stepwise` (the app's page replaces the prerendered one once the first step shows)
  const cardSteps = Math.ceil((listing.data?.products.length ?? 0) / CARDS_PER_STEP);
  const facetSteps = Math.max(1, Math.ceil((listing.data?.facets.length ?? 0) / FACETS_PER_STEP));
  const step = useStepwise(listing.data !== null, cardSteps + facetSteps, restored.current !== null);
  const shown = step === Infinity ? products : products.slice(0, CARDS_PER_STEP * (step + 1));
  const facets = (listing.data?.facets ?? []).slice(0, step === Infinity ? undefined : Math.max(0, step - cardSteps + 1) * FACETS_PER_STEP);
  const busy = listing.loading || (listing.data !== null && step !== Infinity);
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

  const update = (changes: Record<string, string | null>, replace = false) => {
    const p = new URLSearchParams(searchString);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') p.delete(k);
      else p.set(k, v);
    }
    const qs = p.toString();
    // all wines: `/wines`; a listing opened at `/` with a query string (old links, a search) stays there while it has one
    const path = collectionParam ? `/collections/${collectionParam}` : categorySlug ? `/categories/${categorySlug}` : here === '/' && qs ? '/' : '/wines';
    navigate(`${path}${qs ? `?${qs}` : ''}`, { replace });
  };
  const toggle = (param: string, id: string) => {
    const current = (params.get(param) ?? '').split(',').filter(Boolean);
    const nextValues = current.includes(id) ? current.filter((v) => v !== id) : [...current, id];
    update({ [param]: nextValues.join(',') || null });
  };
  const activeFilters = FILTERS.filter((k) => k !== 'q' && params.get(k));
  const collection = collections.data?.find((c) => c.id === collectionId);
  const q = params.get('q');
  const count = listing.data ? resultCount(listing.data.facets, apiSearch) : null;
  const heading = q ? `${t('resultsFor')} “${q}”` : (collection?.title ?? category?.name ?? t('allWines'));
  // the collection's own meta description, else the heading and the count
  usePageMeta(listing.data ? collection?.meta_description || t('listingMeta', { name: heading, count: count ?? listing.data.products.length }) : null);

  return (
    <div className="catalogue">
      <CollectionNav collections={collections.data ?? []} current={collectionId} />
      <div className="listing-head">
        <h1>{heading}</h1>
        <p className="result-count" role="status" aria-live="polite" data-testid="result-count">
          {count !== null && !listing.loading ? t('resultCount', { count }) : ''}
        </p>
        <button type="button" className="filter-button" aria-expanded={drawer} aria-controls="filters" onClick={() => setDrawer(true)}>
          {t('filters')}
          {activeFilters.length > 0 && ` (${activeFilters.length})`}
        </button>
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
        {/* a column on a desktop; on a phone a drawer, closed until the filter button opens it */}
        <div className={drawer ? 'sidebar open' : 'sidebar'} id="filters" role="region" aria-label={t('filters')}>
          <div className="drawer-head">
            <strong>{t('filters')}</strong>
            <button type="button" className="link" onClick={() => setDrawer(false)}>
              {t('closeFilters')}
            </button>
          </div>
          <div className="sidebar-body">
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
            {listing.data && step >= cardSteps && (
              <PriceFilter
                range={listing.data.priceRange}
                min={params.get('price_min')}
                max={params.get('price_max')}
                onChange={(min, max, replace) => update({ price_min: min, price_max: max }, replace)}
              />
            )}
            {facets.map((facet) => (
              <FacetGroup
                key={facet.key}
                facet={facet}
                param={PARAM[facet.key]}
                selected={(params.get(PARAM[facet.key]) ?? '').split(',').filter(Boolean)}
                onToggle={toggle}
              />
            ))}
          </div>
          <div className="drawer-foot">
            <button type="button" className="primary wide" aria-busy={listing.loading} onClick={() => setDrawer(false)}>
              {count !== null ? t('showResults', { count }) : t('showResultsAny')}
            </button>
          </div>
        </div>
        <section className="results" aria-label={t('results')} aria-busy={busy} data-stepwise={busy && !listing.loading ? '' : undefined}>
          <ErrorNote error={listing.error} />
          {listing.loading && !listing.data && <Loading />}
          {listing.data && products.length === 0 && <p className="notice">{t('noResults')}</p>}
          {listing.data && products.length === 0 && q && <DidYouMean q={q} />}
          <ul className="grid" data-testid="products">
            {shown.map((p) => (
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
      <Link href="/wines" aria-current={!current ? 'page' : undefined}>
        {t('allWines')}
      </Link>
      {collections.map((c) => (
        <Link key={c.id} href={collectionHref(c)} aria-current={c.id === current ? 'page' : undefined}>
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

const SETTLE_MS = 350;

/** Two sliders over `price_range` (computed without the price bounds, so the whole range on offer stays visible). */
function PriceFilter({
  range,
  min,
  max,
  onChange,
}: {
  range: PriceRange;
  min: string | null;
  max: string | null;
  onChange(min: string | null, max: string | null, replace: boolean): void;
}) {
  const { t, money } = useShop();
  const lo = Math.floor(range.min);
  const hi = Math.ceil(range.max);
  const [value, setValue] = useState<[number, number]>([Number(min ?? lo), Number(max ?? hi)]);
  useEffect(() => setValue([Number(min ?? lo), Number(max ?? hi)]), [min, max, lo, hi]);
  // one request per settled value: a drag or held arrow key asks once it rests for SETTLE_MS; the first settled
  // value of a slider session adds a history entry, later ones replace it (until the slider loses focus)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pushed = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!(hi > lo)) return null;
  const slide = (next: [number, number]) => {
    setValue(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      onChange(next[0] > lo ? String(next[0]) : null, next[1] < hi ? String(next[1]) : null, pushed.current);
      pushed.current = true;
    }, SETTLE_MS);
  };
  const endSession = () => (pushed.current = false);
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
          onChange={(e) => slide([Math.min(Number(e.target.value), value[1]), value[1]])}
          onBlur={endSession}
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
          onChange={(e) => slide([value[0], Math.max(Number(e.target.value), value[0])])}
          onBlur={endSession}
        />
      </label>
    </fieldset>
  );
}
