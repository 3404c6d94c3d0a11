// The API client: openapi-fetch over the types generated from the live openapi.json (src/api/schema.d.ts,
// `npm run generate:api`). No request or response type is written by hand here.
import createClient from 'openapi-fetch';
import { VisitorGate } from './visitor-gate';
import type { components, paths } from '../../../openapi-client/schema';

export type Schemas = components['schemas'];
export type Product = Schemas['ProductListDto'];
export type ProductDetail = Schemas['ProductDetailDto'];
export type Variant = Schemas['VariantDto'];
export type Facet = Schemas['FacetDto'];
export type PriceRange = Schemas['PriceRangeDto'];
export type Cart = Schemas['CartDto'];
export type Checkout = Schemas['StorefrontCheckoutDto'];
export type CheckoutAddress = Schemas['CheckoutAddressDto'];
export type Order = Schemas['OrderReceiptDto'];
export type Currency = Schemas['StorefrontCurrencyDto'];
export type Collection = Schemas['StorefrontCollectionDto'];
export type Profile = Schemas['ProfileDto'];
export type SavedAddress = Schemas['SavedAddressDto'];
export type AddressBody = Schemas['AddressBodyDto'];
export type OrderSummary = Schemas['OrderSummaryDto'];

/** Where the API lives: the page's own origin (served at /storefront-demo/, or `npm run dev` with its proxy). */
export const API_BASE = (import.meta.env.VITE_API_URL ?? '').replace(/\/$/, '');

export const SIGNED_OUT_EVENT = 'vinoshop:signed-out';

const STOREFRONT_TOKEN_KEY = 'vinoshop.storefront_token';
const LEGACY_CUSTOMER_TOKEN_KEY = 'vinoshop.customer_token';
const LOCALE_KEY = 'vinoshop.locale';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: keep it in memory only */
  }
}

/**
 * The identity the API sees. A public `vnstss_` token names the shop (given once as `?token=` on the demo URL that
 * `npm run shop -- demo` prints, or VITE_STOREFRONT_TOKEN at build time; public, so kept in localStorage); a signed-in
 * shopper's `vnscat_` token (in memory only) replaces it. Without either, the API picks the shop by host (or the only shop).
 */
// a shopper's token is a credential: held in memory only (a reload signs out), never where a script could find it
// later; a token an earlier version left in localStorage is removed
store(LEGACY_CUSTOMER_TOKEN_KEY, null);

export const session = {
  storefrontToken: stored(STOREFRONT_TOKEN_KEY) ?? (import.meta.env.VITE_STOREFRONT_TOKEN as string | undefined) ?? null,
  customerToken: null as string | null,
  locale: stored(LOCALE_KEY) ?? (navigator.language?.toLowerCase().startsWith('de') ? 'de' : 'en'),
  setStorefrontToken(token: string) {
    this.storefrontToken = token;
    store(STOREFRONT_TOKEN_KEY, token);
  },
  setCustomerToken(token: string | null) {
    this.customerToken = token;
  },
  setLocale(locale: string) {
    this.locale = locale;
    store(LOCALE_KEY, locale);
  },
};

const fromUrl = new URLSearchParams(location.search).get('token');
if (fromUrl && /^vnstss_[A-Za-z0-9_-]{16,}$/.test(fromUrl)) {
  session.setStorefrontToken(fromUrl);
  const clean = new URL(location.href);
  clean.searchParams.delete('token');
  history.replaceState(history.state, '', clean);
}

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'include' });

// writes wait for the requests this browser sent before it had its visitor cookie (src/api/visitor-gate.ts)
const VISITOR_KEY = 'vinoshop.visitor';
const visitorGate = new VisitorGate(stored(VISITOR_KEY) === '1', () => store(VISITOR_KEY, '1'));
const sentEarly = new WeakMap<Request, boolean>();

api.use({
  async onRequest({ request }) {
    const token = session.customerToken ?? session.storefrontToken;
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    // the active language: `locale` on reads (kept verbatim when a Link URL already carries it: the cursor
    // fingerprints the query), Accept-Language on every request
    request.headers.set('Accept-Language', session.locale);
    let out = request;
    if (request.method === 'GET') {
      const url = new URL(request.url);
      if (!url.searchParams.has('locale')) {
        url.searchParams.set('locale', session.locale);
        out = new Request(url, request);
      }
    }
    sentEarly.set(out, await visitorGate.before(out.method));
    return out;
  },
  onResponse({ request, response }) {
    visitorGate.done(sentEarly.get(request) ?? false, response.status);
    return response;
  },
  onError({ request }) {
    visitorGate.done(sentEarly.get(request) ?? false, null);
  },
});

/** The error envelope `{errors, code}` as an exception. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** Unwraps an openapi-fetch result: the data, or an ApiError built from the error envelope. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  const body = (result.error ?? {}) as { errors?: unknown; code?: unknown };
  const message = typeof body.errors === 'string' ? body.errors : Array.isArray(body.errors) ? body.errors.join('; ') : `HTTP ${result.response.status}`;
  if (result.response.status === 401 && session.customerToken) {
    // an expired or revoked shopper token: back to anonymous (the shop provider listens)
    session.setCustomerToken(null);
    dispatchEvent(new Event(SIGNED_OUT_EVENT));
  }
  throw new ApiError(result.response.status, message, typeof body.code === 'string' ? body.code : null);
}

/** The `rel="next"` URL of a Link header, as a query string to send verbatim (its page_info fingerprints it). */
export function nextQuery(response: Response): string | null {
  const link = response.headers.get('Link');
  const m = link?.match(/<([^>]+)>\s*;\s*rel="next"/);
  if (!m) return null;
  return new URL(m[1], location.href).search.replace(/^\?/, '');
}

/** The API's absolute URL for a path it returns (factsheets, test payment pages). */
export const apiUrl = (path: string) => (/^https?:/.test(path) ? path : `${API_BASE}${path}`);
