// Search engines (issue 37): per page a meta description, a canonical URL and, on a product page, schema.org
// `Product` JSON-LD with one `Offer` per variant. Set in the document's head by the SPA (no prerendering: README).
import { useEffect } from 'react';

type Variant = { id: string; sku: string | null; price: number; available: boolean; size?: string | null };
type ProductLike = {
  title: string | null;
  handle: string | null;
  vendor: string | null;
  summary_html: string | null;
  currency: string;
  rating: number;
  rating_count: number;
  images: Array<{ src: string | null }>;
  variants: Variant[];
};

/** Text of an HTML fragment (already sanitised by the API), whitespace collapsed, cut at `max` characters. */
export function plainText(html: string | null, max = 160): string {
  const text = (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** schema.org Product with an Offer per variant (price as a decimal string, availability InStock / OutOfStock). */
export function productJsonLd(p: ProductLike, url: string, origin: string): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.title ?? '',
    url,
    image: p.images.filter((i) => i.src).map((i) => new URL(i.src!, origin).href),
    offers: p.variants.map((v) => ({
      '@type': 'Offer',
      ...(v.sku ? { sku: v.sku } : {}),
      ...(v.size ? { name: v.size } : {}),
      price: v.price.toFixed(2),
      priceCurrency: p.currency,
      availability: v.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      url,
    })),
  };
  const description = plainText(p.summary_html, 500);
  if (description) ld.description = description;
  if (p.vendor) ld.brand = { '@type': 'Brand', name: p.vendor };
  if (p.rating_count > 0) ld.aggregateRating = { '@type': 'AggregateRating', ratingValue: p.rating, ratingCount: p.rating_count };
  return ld;
}

function headElement<K extends 'meta' | 'link' | 'script'>(tag: K, selector: string, init: (el: HTMLElementTagNameMap[K]) => void): HTMLElementTagNameMap[K] {
  let el = document.head.querySelector<HTMLElementTagNameMap[K]>(selector);
  if (!el) {
    el = document.createElement(tag);
    init(el);
    document.head.append(el);
  }
  return el;
}

const DEFAULT_DESCRIPTION = typeof document === 'undefined' ? '' : (document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '');

/**
 * The page's meta description, canonical URL (this origin and path, no query) and JSON-LD while it is shown; back to
 * the shop's description and no JSON-LD when it goes. `null` description: not ready yet (nothing set).
 */
export function usePageMeta(description: string | null, jsonLd: Record<string, unknown> | null = null): void {
  const json = jsonLd ? JSON.stringify(jsonLd) : null;
  useEffect(() => {
    if (description === null) return;
    const meta = headElement('meta', 'meta[name="description"]', (m) => (m.name = 'description'));
    meta.content = description;
    const canonical = headElement('link', 'link[rel="canonical"]', (l) => (l.rel = 'canonical'));
    canonical.href = location.origin + location.pathname;
    let script: HTMLScriptElement | null = null;
    if (json) {
      script = headElement('script', 'script[type="application/ld+json"]', (s) => (s.type = 'application/ld+json'));
      script.textContent = json;
    }
    return () => {
      meta.content = DEFAULT_DESCRIPTION;
      canonical.remove();
      script?.remove();
    };
  }, [description, json]);
}
