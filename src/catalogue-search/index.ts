/**
 * The public surface of the catalogue engine (issue 36; README.md in this folder): the `CatalogueSearch`
 * implementation and its delta input (`CatalogueIndexService`: the `catalogue.delta` cache-bus topic and `changed`),
 * the `CatalogueIndexSource` it reads the catalogue through, the product JSON cache, and the text folding and
 * suggestion functions the catalogue's search suggestions share with it.
 */
export { CatalogueIndexService } from './catalogue-index.service.js';
export { CatalogueIndexSource } from './catalogue-index.source.js';
export type { IndexRowCounts, IndexRowSink } from './catalogue-index.source.js';
export type { IndexRow } from './index-row.js';
export { ProductJsonCache } from './product-json-cache.js';
export type { ReadonlyTenantIndex } from './tenant-index-view.js';
export { boundedDistance, isNumber, textTokens, typoBudget } from './text-fold.js';
export {
  codeCandidates,
  codeProductCount,
  contentMemo,
  firstInOrder,
  matchQuality,
  productCandidates,
  rankAndGroup,
  suggestWords,
  tokensQuality,
  type SuggestCandidate,
} from './text-suggest.js';
