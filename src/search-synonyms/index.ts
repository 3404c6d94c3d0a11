/** The public surface of `search-synonyms` for other modules (feature -> feature imports go through this file only). */
export { SearchSynonymsService } from './search-synonyms.service.js';
/** Export and import of the rules, also as the `search_synonyms` member of the catalogue document. */
export { SearchSynonymsAdmin } from './search-synonyms-admin.service.js';
export type { SearchSynonymsReader, SynonymRule } from './synonyms.contract.js';
/** The normal form of stored phrases: normalise a query the same way before comparing it with a rule. */
export { normalizeSearchPhrase } from './synonym-rules.js';
