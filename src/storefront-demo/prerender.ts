// Prerendered storefront pages (issue 37): the HTML the server sends for a product or listing URL already holds the
// page's title, meta description, canonical URL, JSON-LD and visible content, so a crawler that runs no script sees
// them. Pure functions over the API's answers; every string from the shop is hostile and escaped here.
import { listingDescription, productDescription, productJsonLd, type SeoProduct } from './seo-data.js';

export interface PrerenderProduct extends SeoProduct {
  handle: string | null;
  manufacturer?: { name: string | null } | null;
  variants: Array<SeoProduct['variants'][number] & { title?: string | null }>;
}
export interface PrerenderCard {
  title: string | null;
  handle: string | null;
  id: string;
  image: string | null;
  currency: string;
  price_min: number;
  price_max: number;
  available: boolean;
  manufacturer: { name: string | null };
}
export interface PrerenderedPage {
  title: string;
  description: string;
  /** Absolute URL: the request's origin and path, no query. */
  canonical: string;
  jsonLd: Record<string, unknown> | null;
  /** The content of `#root`. */
  body: string;
}
/** Where the page lives: the origin and the storefront's base path (`/storefront-demo`). */
export interface PageBase {
  origin: string;
  base: string;
  path: string;
}

const SHOP = 'Vinoshop';
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** JSON for a `<script>` data block: `<`, `>`, `&` and the JS line separators as \u escapes, so no `</script>` closes it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A price as the SPA writes it in English ("CHF 24.50"); the API's decimal, two places. */
export function formatPrice(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}

/** An image URL fit for `src`: same-site paths and http(s) only. */
function imageUrl(src: string | null): string | null {
  return src && /^(\/[^/]|https?:\/\/)/i.test(src) ? src : null;
}

const productPath = (p: { handle: string | null; id?: string }) => (p.handle ? `/wines/${encodeURIComponent(p.handle)}` : `/products/${p.id ?? ''}`);

export function productPage(p: PrerenderProduct, at: PageBase): PrerenderedPage {
  const canonical = at.origin + at.base + at.path;
  const title = p.title ?? '';
  const maker = p.manufacturer?.name ?? p.vendor;
  const image = imageUrl(p.images.find((i) => imageUrl(i.src))?.src ?? null);
  const variants = p.variants
    .map((v) => {
      const name = v.size ?? v.title ?? '';
      const stock = v.available ? 'In stock' : 'Sold out';
      return `<li>${escapeHtml(name)} <strong>${escapeHtml(formatPrice(v.price, p.currency))}</strong> <span>${stock}</span></li>`;
    })
    .join('');
  const summary = productDescription({ ...p, title: null, vendor: null });
  const body = [
    '<main class="prerendered"><article class="pre-product">',
    image ? `<img src="${escapeHtml(image)}" alt="${escapeHtml(title)}" width="200" height="400">` : '',
    '<div>',
    `<h1>${escapeHtml(title)}</h1>`,
    maker ? `<p>${escapeHtml(maker)}</p>` : '',
    summary ? `<p>${escapeHtml(summary)}</p>` : '',
    `<ul>${variants}</ul>`,
    '</div></article></main>',
  ].join('');
  return {
    title: title ? `${title} · ${SHOP}` : SHOP,
    description: productDescription(p),
    canonical,
    jsonLd: productJsonLd(p, canonical, at.origin),
    body,
  };
}

export function listingPage(heading: string, ownDescription: string | null, count: number, cards: PrerenderCard[], at: PageBase): PrerenderedPage {
  const items = cards
    .map((c) => {
      const image = imageUrl(c.image);
      const from = c.price_min !== c.price_max ? 'from ' : '';
      return [
        `<li class="pre-card"><a href="${escapeHtml(at.base + productPath(c))}">`,
        image ? `<img src="${escapeHtml(image)}" alt="" width="150" height="225">` : '',
        `<h2>${escapeHtml(c.title ?? '')}</h2></a>`,
        c.manufacturer.name ? `<p>${escapeHtml(c.manufacturer.name)}</p>` : '',
        `<p>${from}<strong>${escapeHtml(formatPrice(c.price_min, c.currency))}</strong></p>`,
        `<p>${c.available ? 'In stock' : 'Sold out'}</p></li>`,
      ].join('');
    })
    .join('');
  return {
    title: `${heading} · ${SHOP}`,
    description: ownDescription || listingDescription(heading, count),
    canonical: at.origin + at.base + at.path,
    jsonLd: null,
    body: `<main class="prerendered"><h1>${escapeHtml(heading)}</h1><ul class="pre-grid">${items}</ul></main>`,
  };
}

/**
 * The SPA's index.html with the page filled in: its `<title>`, the description (the shop's own kept in `data-default`
 * for the SPA to restore), a canonical link, the JSON-LD and the content inside `#root`, which the SPA replaces when
 * it starts (examples/storefront/src/main.tsx).
 */
export function fillShell(shell: string, page: PrerenderedPage): string {
  let html = shell.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`);
  const description = `content="${escapeHtml(page.description)}"`;
  const meta = /<meta name="description" content="([^"]*)"\s*\/?>/;
  html = meta.test(html)
    ? html.replace(meta, (_m, shop: string) => `<meta name="description" ${description} data-default="${shop}">`)
    : html.replace('</head>', () => `<meta name="description" ${description}></head>`);
  const head = [
    `<link rel="canonical" href="${escapeHtml(page.canonical)}">`,
    page.jsonLd ? `<script type="application/ld+json">${scriptJson(page.jsonLd)}</script>` : '',
  ].join('');
  html = html.replace('</head>', () => `${head}</head>`);
  return html.replace(/<div id="root">\s*<\/div>/, () => `<div id="root">${page.body}</div>`);
}
