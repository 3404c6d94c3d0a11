/**
 * Search synonyms (issue 35): the contract the catalogue engine reads. The `search-synonyms` module owns the rules
 * (admin CRUD, import/export, the shipped default set); the engine only asks for them at query time.
 *
 * A rule's terms are phrases of one or more words, stored lowercased and accent-folded.
 * - `two_way`: every phrase of `terms` is a synonym of every other (`syrah, shiraz`); `synonyms` is empty.
 * - `one_way`: a query for any phrase of `terms` also finds each phrase of `synonyms`, not the reverse
 *   (`bubbly → sparkling, champagne, cremant`).
 */
export interface SynonymRule {
  readonly id: string;
  readonly kind: 'two_way' | 'one_way';
  readonly terms: readonly string[];
  readonly synonyms: readonly string[];
}

/** What the engine needs: a shop's rules from memory, and a number that changes whenever they change (for memo keys). */
export interface SearchSynonymsReader {
  /** The shop's rules (cached per tenant, invalidated on every instance when they change). */
  rulesFor(tenantId: string): Promise<readonly SynonymRule[]>;
  /** Changes whenever the tenant's rules change on any instance (include it in any cache key of a text answer). */
  version(tenantId: string): number;
}
