// The shop's categories for the menu and the `/categories/<slug>` pages. The storefront API has no category
// resource: the categories facet of the whole catalogue (GET /products/facets) names each category with a product
// count (a category counting its descendants), and a product's `category_path` names its chain root first.
import { api, ok, session } from './api/client';
import { slug } from './urls';

export interface Category {
  id: string;
  name: string;
  slug: string;
  count: number;
}

let cache: { key: string; list: Promise<Category[]> } | null = null;

/** Every category with a product, the most stocked first (the facet's order), for the active language; kept per session. */
export function loadCategories(): Promise<Category[]> {
  if (cache?.key === session.locale) return cache.list;
  const list = api.GET('/api/2026-04-01/products/facets', { params: { query: {} } }).then((r) => {
    const facet = ok(r).facets.find((f) => f.key === 'categories');
    return (facet?.values ?? []).filter((v) => v.name).map((v) => ({ id: v.id, name: v.name!, slug: slug(v.name!) || v.id, count: v.count }));
  });
  cache = { key: session.locale, list };
  list.catch(() => (cache = null));
  return list;
}

/** The category a `/categories/<slug>` URL names (its slug, or its id), or null. */
export async function categoryBySlug(s: string): Promise<Category | null> {
  const list = await loadCategories();
  return list.find((c) => c.slug === s) ?? list.find((c) => c.id === s) ?? null;
}
