import type { CollectionScope } from '../extensions/index.js';
import type { IndexRow } from './index-row.js';

/** What a tenant's index will hold, counted before it is built (for `estimateIndexBytes`). */
export interface IndexRowCounts {
  products: number;
  variants: number;
  /** Characters of the titles (one per variant row) and SKUs. */
  textChars: number;
}

/** Receives a build's rows: first the snapshot's catalogue version and WAL position, then each product's rows once. */
export interface IndexRowSink {
  begin(version: number, lsn: number): void;
  product(productId: string, rows: IndexRow[]): void;
}

/**
 * Where the engine reads the catalogue (issue 36): the rows of `variant_search` and the collections' members. The
 * tables belong to the catalogue module, which implements this (`CatalogueIndexRepository`, src/catalogue/repositories/);
 * the engine holds no SQL and imports nothing of the catalogue.
 */
export abstract class CatalogueIndexSource {
  /** Counts the rows a build of the tenant's index would read. */
  abstract countRows(tenantId: string): Promise<IndexRowCounts>;
  /** Reads every visible row of the tenant in one snapshot, product by product (a product's rows together, in order). */
  abstract readAll(tenantId: string, sink: IndexRowSink): Promise<void>;
  /** Re-reads these products' rows (absent: no longer visible) with the WAL position of the statement. */
  abstract readProducts(tenantId: string, productIds: string[]): Promise<{ rows: IndexRow[]; lsn: number }>;
  /** A manual collection's picks with their positions (the lowest when picked twice). */
  abstract manualPicks(tenantId: string, collectionId: string): Promise<Array<{ product_id: string; pos: number }>>;
  /** The products a smart collection's rules select. */
  abstract smartMembers(tenantId: string, scope: CollectionScope): Promise<string[]>;
}
