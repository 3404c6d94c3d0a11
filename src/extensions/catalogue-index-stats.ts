/** What the storefront catalogue index reports about itself (metrics and readiness). */
export interface CatalogueIndexSnapshot {
  /** Tenants whose catalogue is loaded in this process. */
  tenants: number;
  /** Approximate memory held by the indexes, in bytes. */
  bytes: number;
  /** Memory held besides for copies being made (an index's layout copy), in bytes. */
  reservedBytes: number;
  /** Full (re)builds since start. */
  rebuilds: number;
  /** Catalogue reads refused since start because the tenant's index alone does not fit the memory budget. */
  overBudgetRefusals: number;
  /** How far behind the committed changes the index is (ms); 0 when current. */
  deltaLagMs: number;
  /** Questions answered from the engine's answer memo since start (a repeated question, provably current). */
  answerHits: number;
  /** Questions the engine computed since start. */
  answerMisses: number;
}

/**
 * Extension point: the catalogue index's statistics (declared here, in src/extensions/, so observability and the
 * catalogue import it and extensions/ imports neither). The catalogue module
 * provides it (`CatalogueIndexStatistics`); metrics read it through `Extensions`, and go without when none exists.
 */
export abstract class CatalogueIndexStats {
  abstract stats(): CatalogueIndexSnapshot;
}
