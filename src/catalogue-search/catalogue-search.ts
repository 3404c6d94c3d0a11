// The catalogue engine's contract lives in src/extensions/catalogue-search.ts (issue 36: extensions/ is a leaf).
export { CatalogueSearch } from '../extensions/index.js';
export type { CatalogueSearchRequest, CatalogueSearchResult, VariantStock } from '../extensions/index.js';
