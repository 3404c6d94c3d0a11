/** What the storefront catalogue index reports about itself (metrics and readiness). */
export interface CatalogueIndexSnapshot {
  /** Tenants whose catalogue is loaded in this process. */
  tenants: number;
  /** Approximate memory held, in bytes. */
  bytes: number;
  /** Full (re)builds since start. */
  rebuilds: number;
  /** How far behind the committed changes the index is (ms); 0 when current. */
  deltaLagMs: number;
}

/**
 * Injection token of the catalogue index's statistics. The service holding the storefront catalogue in memory
 * provides it (today the CatalogueCache, see catalogue.module.ts); metrics and /health/ready read it, and go without
 * when no provider is bound.
 */
export abstract class CatalogueIndexStats {
  abstract stats(): CatalogueIndexSnapshot;
}
