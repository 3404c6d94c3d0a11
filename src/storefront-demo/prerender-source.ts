// The API answers a prerendered storefront page is made of, read through the API itself over loopback: the same
// tenant resolution (the page URL's `?token=` storefront token, else the request's host, else the only shop), the
// same visibility rules and the same JSON the SPA reads. No cookie is forwarded, so no answer depends on the visitor.
import type { Request } from 'express';
import { request as httpRequest } from 'node:http';
import { listingPage, productPage, type PageBase, type PrerenderCard, type PrerenderedPage, type PrerenderProduct } from './prerender.js';
import { slug } from './seo-data.js';

const API = '/api/2026-04-01';
const FIRST_PAGE = 24;
const TIMEOUT_MS = 3000;
const MAX_BYTES = 4 * 1024 * 1024;
const STOREFRONT_TOKEN = /^vnstss_[A-Za-z0-9_-]{16,}$/;

interface ListAnswer {
  products: PrerenderCard[];
  facets?: Array<{ key: string; values: Array<{ id: string; name: string | null; count: number }> }>;
}
interface CollectionRow {
  id: string;
  handle: string | null;
  title: string | null;
  meta_description?: string | null;
}

/** The API's answer to an unknown or malformed handle or id (404, or 414/422 for one it refuses to read). */
export const NOT_FOUND = 'not found';
type Get = <T>(path: string) => Promise<T | typeof NOT_FOUND | null>;

/** GET on this server's own API, as the request's shop; NOT_FOUND, or null for any other failure (no shop, no answer). */
function loopback(req: Request): Get {
  const token = typeof req.query.token === 'string' && STOREFRONT_TOKEN.test(req.query.token) ? req.query.token : null;
  const headers: Record<string, string> = { accept: 'application/json', host: req.headers.host ?? 'localhost' };
  if (token) headers.authorization = `Bearer ${token}`;
  return <T>(path: string) =>
    new Promise<T | typeof NOT_FOUND | null>((resolve) => {
      const out = httpRequest(
        { host: req.socket.localAddress ?? '127.0.0.1', port: req.socket.localPort, path: API + path, headers, timeout: TIMEOUT_MS },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return resolve([404, 414, 422].includes(res.statusCode ?? 0) ? NOT_FOUND : null);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BYTES) res.destroy();
            else chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
            } catch {
              resolve(null);
            }
          });
          res.on('error', () => resolve(null));
          res.on('close', () => resolve(null));
        },
      );
      out.on('timeout', () => out.destroy());
      out.on('error', () => resolve(null));
      out.end();
    });
}

/** The listing's count as the SPA announces it: the sum of the producer facet's counts (each wine has one producer). */
function countOf(answer: ListAnswer): number {
  const makers = answer.facets?.find((f) => f.key === 'manufacturers');
  return makers ? makers.values.reduce((sum, v) => sum + v.count, 0) : answer.products.length;
}

const listQuery = (extra: Record<string, string>) => `?${new URLSearchParams({ include: 'facets', limit: String(FIRST_PAGE), ...extra }).toString()}`;

/**
 * The prerendered page for a storefront path (below the base path); NOT_FOUND when the API knows no such product,
 * collection or category; null when the path is no product or listing page or the API gives no answer (no shop for
 * the request, a timeout): the SPA shell is sent then, as before.
 */
export async function prerenderedPage(req: Request, at: PageBase): Promise<PrerenderedPage | typeof NOT_FOUND | null> {
  const route = /^\/(wines|collections|categories)(?:\/([^/]+))?\/?$/.exec(at.path);
  if (!route) return null;
  let key: string | undefined;
  try {
    key = route[2] === undefined ? undefined : decodeURIComponent(route[2]);
  } catch {
    return NOT_FOUND;
  }
  const get = loopback(req);
  const page = { ...at, path: route[2] === undefined ? `/${route[1]}` : `/${route[1]}/${route[2]}` };
  const listing = async (path: string, heading: string, description: string | null) => {
    const answer = await get<ListAnswer>(path);
    return answer === null || answer === NOT_FOUND ? answer : listingPage(heading, description, countOf(answer), answer.products, page);
  };
  if (route[1] === 'wines' && key !== undefined) {
    const answer = await get<{ product: PrerenderProduct }>(`/products/by_handle?${new URLSearchParams({ handle: key }).toString()}`);
    return answer === null || answer === NOT_FOUND ? answer : productPage(answer.product, page);
  }
  if (route[1] === 'wines') return listing(`/products${listQuery({ order: 'created desc' })}`, 'All wines', null);
  if (key === undefined) return null;
  if (route[1] === 'collections') {
    const list = await get<{ collections: CollectionRow[] }>('/collections');
    if (list === null || list === NOT_FOUND) return null;
    const c = list.collections.find((x) => x.handle === key) ?? list.collections.find((x) => x.id === key);
    return c ? listing(`/collections/${encodeURIComponent(c.id)}/products${listQuery({})}`, c.title ?? '', c.meta_description ?? null) : NOT_FOUND;
  }
  const facets = await get<ListAnswer>('/products/facets');
  if (facets === null || facets === NOT_FOUND) return null;
  const categories = (facets.facets?.find((f) => f.key === 'categories')?.values ?? []).filter((v) => v.name);
  const category = categories.find((v) => (slug(v.name ?? '') || v.id) === key) ?? categories.find((v) => v.id === key);
  return category ? listing(`/products${listQuery({ category_id: category.id, order: 'created desc' })}`, category.name ?? '', null) : NOT_FOUND;
}
