// Search engines (issue 37): per page a meta description, a canonical URL and, on a product page, schema.org
// `Product` JSON-LD with one `Offer` per variant (built by src/storefront-demo/seo-data.ts, which the server's prerender
// uses too). Set in the document's head by the SPA, over what the prerendered page already holds.
import { useEffect } from 'react';

export { plainText, productDescription, productJsonLd } from '../../../src/storefront-demo/seo-data';

function headElement<K extends 'meta' | 'link' | 'script'>(tag: K, selector: string, init: (el: HTMLElementTagNameMap[K]) => void): HTMLElementTagNameMap[K] {
  let el = document.head.querySelector<HTMLElementTagNameMap[K]>(selector);
  if (!el) {
    el = document.createElement(tag);
    init(el);
    document.head.append(el);
  }
  return el;
}

// a prerendered page's description is the page's own; the shop's is kept beside it in data-default
const defaultMeta = typeof document === 'undefined' ? null : document.querySelector('meta[name="description"]');
const DEFAULT_DESCRIPTION = defaultMeta?.getAttribute('data-default') ?? defaultMeta?.getAttribute('content') ?? '';

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
