// The storefront's URLs carry handles (issue 37): `/wines/<handle>` for a product (GET /products/by_handle?handle=),
// `/collections/<handle>` (the handle from GET /collections) and `/categories/<slug>` (a category has no handle in
// the API: the slug of its name as the categories facet gives it). The older `/products/<uuid>` and
// `/collections/<uuid>` URLs still open, and are replaced by the handle URL once the object is known.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// the slug rule is shared with the server's prerender, which must find the same category for a URL
import { slug } from '../../../src/storefront-demo/seo-data';

export { slug };

export const productHref = (p: { id: string; handle?: string | null }) => (p.handle ? `/wines/${encodeURIComponent(p.handle)}` : `/products/${p.id}`);
export const collectionHref = (c: { id: string; handle?: string | null }) => `/collections/${encodeURIComponent(c.handle || c.id)}`;
export const categoryHref = (c: { id: string; name?: string | null }) => `/categories/${slug(c.name ?? '') || c.id}`;
