import { AppError } from '../common/http/app-error.js';
import { CatalogueQueryPipe, CollectionQueryPipe } from './catalogue-query.pipe.js';

/** The message of the 422 the pipe answers with. */
async function unprocessable(answer: Promise<unknown>): Promise<string> {
  const err = await answer.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(422);
  return (err as AppError).message;
}

const A = '0b7e0d6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const B = '1b7e0d6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

describe('CatalogueQueryPipe', () => {
  it('turns the raw query object into typed filters (ids deduplicated and lower-cased, arrays joined, words normalized)', async () => {
    const f = await CatalogueQueryPipe.products.transform({
      color_id: [A.toUpperCase(), `${A},${B}`],
      q: 'Château  Margaux',
      price_min: '10',
      price_max: ' ',
      available: '1',
      on_sale: 'false',
      order: 'price_desc',
      include: 'facets',
      ids: B,
      collection_id: A,
      limit: '5',
    });
    expect(f).toMatchObject({
      ids: [B],
      collectionId: A,
      words: ['chateau', 'margaux'],
      q: 'Château  Margaux',
      priceMin: 10,
      priceMax: null,
      available: true,
      onSale: false,
      order: 'price desc',
      includeFacets: true,
    });
    expect(f.dims.colors).toEqual([A, B]);
    expect(f.dims.manufacturers).toEqual([]);
  });

  it('takes per endpoint kind only its parameters: no ids on collections, no order on facets', async () => {
    const query = { ids: A, collection_id: B, order: 'nonsense' };
    expect(await unprocessable(CatalogueQueryPipe.products.transform(query))).toMatch(/^order must be one of price asc/);
    expect(await CatalogueQueryPipe.facets.transform(query)).toMatchObject({ ids: null, collectionId: B, order: null });
    expect(await CatalogueQueryPipe.collection.transform({ ids: A, collection_id: 'not-a-uuid' })).toMatchObject({ ids: null, collectionId: null });
    expect(await CatalogueQueryPipe.products.transform(undefined)).toMatchObject({ ids: null, collectionId: null, words: [], order: null });
  });

  it('CollectionQueryPipe holds a bad parameter back until the filters are asked for (the collection is found first)', async () => {
    const held = await CollectionQueryPipe.products.transform({ order: 'sideways' });
    expect(() => held.filters()).toThrow(AppError);
    expect(await unprocessable(Promise.resolve().then(() => held.filters()))).toMatch(/^order must be one of/);
    expect((await CollectionQueryPipe.facets.transform({ vendor: A, order: 'nonsense' })).filters()).toMatchObject({ order: null });
  });

  it('refuses bad parameters with 422 naming them', async () => {
    const pipe = CatalogueQueryPipe.products;
    expect(await unprocessable(pipe.transform({ vendor: 'x' }))).toBe('vendor must hold comma-separated UUIDs ("x" is not one)');
    expect(await unprocessable(pipe.transform({ q: { a: '1' } }))).toBe('q is invalid');
    expect(await unprocessable(pipe.transform({ q: 'x'.repeat(201) }))).toBe('q must be at most 200 characters');
    expect(await unprocessable(pipe.transform({ available: 'yes' }))).toBe('available must be true or false');
    expect(await unprocessable(pipe.transform({ price_min: '-1' }))).toBe('price_min must be a non-negative number');
    expect(await unprocessable(pipe.transform({ order: 'relevance' }))).toBe('order relevance needs q');
  });
});
