import { describe, expect, it } from '@jest/globals';
import { plainText, productJsonLd } from './seo';

describe('storefront search-engine data (issue 37)', () => {
  const product = {
    title: 'Château Test 2019',
    handle: 'chateau-test-2019',
    vendor: 'Château Test',
    summary_html: '<p>Dark fruit &amp; <em>cedar</em>.</p>',
    currency: 'CHF',
    rating: 4.5,
    rating_count: 12,
    images: [{ src: '/storefront-demo/bottles/red-1.svg' }, { src: null }],
    variants: [
      { id: 'a', sku: 'CT-75', price: 24.5, available: true, size: '75 cl' },
      { id: 'b', sku: null, price: 52, available: false, size: null },
    ],
  };

  it('a schema.org Product with one Offer per variant: price as a decimal string, currency, availability', () => {
    const url = 'https://shop.test/storefront-demo/wines/chateau-test-2019';
    expect(productJsonLd(product, url, 'https://shop.test')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Château Test 2019',
      url,
      image: ['https://shop.test/storefront-demo/bottles/red-1.svg'],
      description: 'Dark fruit & cedar .',
      brand: { '@type': 'Brand', name: 'Château Test' },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, ratingCount: 12 },
      offers: [
        { '@type': 'Offer', sku: 'CT-75', name: '75 cl', price: '24.50', priceCurrency: 'CHF', availability: 'https://schema.org/InStock', url },
        { '@type': 'Offer', price: '52.00', priceCurrency: 'CHF', availability: 'https://schema.org/OutOfStock', url },
      ],
    });
    const unrated = productJsonLd({ ...product, rating_count: 0, vendor: null, summary_html: null }, url, 'https://shop.test');
    expect(['aggregateRating' in unrated, 'brand' in unrated, 'description' in unrated]).toEqual([false, false, false]);
  });

  it('a description is the text of the HTML, cut at the limit with an ellipsis', () => {
    expect(plainText('<p>a  <b>b</b></p>\n<p>c</p>')).toBe('a b c');
    expect(plainText(null)).toBe('');
    const long = plainText(`<p>${'word '.repeat(100)}</p>`, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
  });
});
