/** The public surface of `search-synonyms` for other modules (feature -> feature imports go through this file only). */
export { SearchSynonymsService } from './search-synonyms.service.js';
export type { SearchSynonymsReader, SynonymRule } from './synonyms.contract.js';
