// Search-engine data of the reference storefront (issue 37): the meta description's text and schema.org `Product`
// JSON-LD. One pure file, no imports: the storefront (examples/storefront/src/seo.ts) sets it in the page, and the
// server's prerender (prerender.ts) writes the same into the HTML it sends.

export type SeoVariant = { sku: string | null; price: number; available: boolean; size?: string | null };
export type SeoProduct = {
  title: string | null;
  vendor: string | null;
  summary_html: string | null;
  currency: string;
  rating: number;
  rating_count: number;
  images: Array<{ src: string | null }>;
  variants: SeoVariant[];
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

/** A product page's meta description: its summary as text, else its title and producer. */
export function productDescription(p: Pick<SeoProduct, 'title' | 'vendor' | 'summary_html'>): string {
  return plainText(p.summary_html) || [p.title, p.vendor].filter(Boolean).join(' · ');
}

/** An image's absolute URL, when it is an http(s) one (no `javascript:` or `data:` URL reaches a crawler). */
function httpUrl(src: string | null, origin: string): string[] {
  if (!src) return [];
  try {
    const url = new URL(src, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? [url.href] : [];
  } catch {
    return [];
  }
}

/** schema.org Product with an Offer per variant (price as a decimal string, availability InStock / OutOfStock). */
export function productJsonLd(p: SeoProduct, url: string, origin: string): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.title ?? '',
    url,
    image: p.images.flatMap((i) => httpUrl(i.src, origin)),
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

/** A URL slug: lower case ASCII letters and digits joined by single dashes ("Rosé wine" → "rose-wine"). */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A listing's meta description without a collection's own (the SPA's English `listingMeta`). */
export function listingDescription(name: string, count: number): string {
  return `${name}: ${count} wines at Vinoshop, with region, grape, vintage and the price per litre.`;
}
