// The catalogue engine's contract lives in src/extensions/catalogue-search.ts (issue 36: extensions/ is a leaf).
export { CATALOGUE_SEARCH } from '../extensions/index.js';
export type { CatalogueSearch, CatalogueSearchRequest, CatalogueSearchResult, VariantStock } from '../extensions/index.js';
