import { describe, expect, it } from '@jest/globals';
import { escapeHtml, fillShell, formatPrice, listingPage, productPage, scriptJson } from './prerender.js';

const HOSTILE = `Cuvée </script><script>alert(1)</script> & "quoted" 'single' <b>\u2028`;
const SHELL =
  '<!doctype html><html><head><meta name="description" content="The shop." /><title>Vinoshop</title></head><body><div id="root"></div><script type="module" src="/a.js"></script></body></html>';
const at = { origin: 'https://shop.example', base: '/storefront-demo', path: '/wines/cuvee' };
const product = {
  title: HOSTILE,
  handle: 'cuvee',
  vendor: HOSTILE,
  manufacturer: { name: HOSTILE },
  summary_html: null,
  currency: 'CHF',
  rating: 0,
  rating_count: 0,
  images: [{ src: 'javascript:alert(1)' }, { src: '/storefront-demo/bottles/red-1.svg' }],
  variants: [{ sku: 'C-75', price: 24.9, available: true, size: HOSTILE }],
};

describe('storefront prerender (issue 37): hostile shop text stays text', () => {
  it('escapes HTML text and attribute values', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('writes JSON that no `</script>`, comment or line separator can break out of, and that parses back', () => {
    const json = scriptJson({ name: HOSTILE, c: '<!-- -->' });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ name: HOSTILE, c: '<!-- -->' });
  });

  it('a product page: one title, description kept beside the shop default, canonical, JSON-LD and the content', () => {
    const html = fillShell(SHELL, productPage(product, at));
    // the only script elements are the JSON-LD and the app's own
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain(`<title>${escapeHtml(HOSTILE)} · Vinoshop</title>`);
    expect(html).toContain(`<meta name="description" content="${escapeHtml(`${HOSTILE} · ${HOSTILE}`)}" data-default="The shop.">`);
    expect(html).toContain('<link rel="canonical" href="https://shop.example/storefront-demo/wines/cuvee">');
    expect(html).toContain(`<h1>${escapeHtml(HOSTILE)}</h1>`);
    expect(html).toContain('<strong>CHF\u00a024.90</strong>');
    expect(html).not.toContain('javascript:');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(JSON.parse(ld)).toMatchObject({
      '@type': 'Product',
      name: HOSTILE,
      image: ['https://shop.example/storefront-demo/bottles/red-1.svg'],
      offers: [{ price: '24.90', priceCurrency: 'CHF', name: HOSTILE }],
    });
  });

  it('a listing page: the cards link by handle, the count in the description, no JSON-LD', () => {
    const card = {
      id: 'i',
      title: HOSTILE,
      handle: 'a"b',
      image: null,
      currency: 'EUR',
      price_min: 9.5,
      price_max: 12,
      available: false,
      manufacturer: { name: null },
    };
    const page = listingPage(HOSTILE, null, 7, [card], { ...at, path: '/wines' });
    expect(page.description).toBe(`${HOSTILE}: 7 wines at Vinoshop, with region, grape, vintage and the price per litre.`);
    const html = fillShell(SHELL, page);
    expect(html).toContain('href="/storefront-demo/wines/a%22b"');
    expect(html).toContain('from <strong>€9.50</strong>');
    expect(html).toContain('Sold out');
    expect(html).not.toContain('application/ld+json');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('a price in a currency Intl does not know still reads as code and two decimals', () => {
    expect(formatPrice(3.5, 'XYZ1')).toBe('XYZ1 3.50');
    expect(formatPrice(1234.5, 'CHF')).toBe('CHF\u00a01,234.50');
  });
});
