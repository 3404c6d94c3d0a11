import type { FacetKey } from '../extensions/index.js';
import type { AnswerMemo } from './answer-memo.js';
import type { FacetSet } from './facet-sets.js';
import type { CatalogueSearchResult } from './catalogue-search.js';
import type { LayoutJob } from './index-layout.js';
import type { IndexRow } from './index-row.js';
import type { IndexPageRequest, IndexQuery, IndexResult } from './index-types.js';
import type { TextIndex } from './text-index.js';
import type { TextMatcher } from './text-match.js';

/** A typed-array column a reader may not write: element writes and the mutating methods are refused by the compiler. */
export type Column<A extends Int32Array | Float64Array | Uint8Array> = Readonly<Omit<A, 'set' | 'fill' | 'copyWithin' | 'sort' | 'reverse'>>;

/**
 * The read-only view of a `TenantIndex` (issue 36; layout and names in README.md): what every reader of the engine
 * takes. It is the index object itself, typed (no copy, no getter in a loop); only the writer (`tenant-index.ts`,
 * with its layout in `index-layout.ts`) changes the columns, pools and counters. The caches below (`memo`, `answers`,
 * the text index's lazily synced dictionary, the prices per currency behind `prices()`) are filled by readers on
 * purpose: they never change an answer, only how fast it comes.
 */
export interface ReadonlyTenantIndex {
  readonly tenantId: string;
  /** Catalogue version the index reflects (catalogue_versions.version). */
  readonly version: number;
  /** Bumped by every product change (not by stock): keys memos of text matches and smart collections. */
  readonly contentVersion: number;
  /** Bumped by every stock change. */
  readonly stockVersion: number;
  /** Bumped by a stock change that flips a variant's availability (keys answers filtered on availability). */
  readonly availVersion: number;
  readonly builtAt: number;
  /** Laid out by category (`clustered`), or in the order the build read the products. */
  readonly byCategory: boolean;

  // dictionary of facet ids: a code per id, its dimension; codes per dimension in insertion order
  readonly codeOf: ReadonlyMap<string, number>;
  readonly codeIds: readonly string[];
  readonly codeDim: Column<Uint8Array>;
  readonly dimCodes: ReadonlyArray<readonly number[]>;

  // products by slot
  readonly pCount: number;
  readonly pIds: readonly string[];
  readonly pIndex: ReadonlyMap<string, number>;
  readonly pAlive: Column<Uint8Array>;
  readonly pCreated: Column<Float64Array>;
  readonly pTitle: readonly string[];
  readonly pRating: Column<Float64Array>;
  readonly pMaker: Column<Int32Array>;
  readonly pCatStart: Column<Int32Array>;
  readonly pCatLen: Column<Int32Array>;
  readonly pVarStart: Column<Int32Array>;
  readonly pVarLen: Column<Int32Array>;
  /** Live products (slots with `pAlive` 1). */
  readonly alive: number;

  // variants by slot
  readonly vCount: number;
  readonly vIds: readonly string[];
  readonly vIndex: ReadonlyMap<string, number>;
  /** The product slot of a variant slot; negative: a dead slot. */
  readonly vProduct: Column<Int32Array>;
  /** Gross price in the default currency × 10,000. */
  readonly vGross4: Column<Float64Array>;
  readonly vAvail: Column<Uint8Array>;
  readonly vOnSale: Column<Uint8Array>;
  readonly vOnHand: Column<Float64Array>;
  /** Code columns of the single-valued variant dimensions, by dimension number. */
  readonly vDim: ReadonlyArray<Column<Int32Array>>;
  readonly vOptStart: Column<Int32Array>;
  readonly vOptLen: Column<Uint8Array>;
  readonly vSku: ReadonlyArray<string | null>;
  readonly skuIndex: ReadonlyMap<string, readonly number[]>;
  readonly deadVariants: number;

  // append-only pools and their used lengths
  readonly catPool: Column<Int32Array>;
  readonly catLen: number;
  readonly varPool: Column<Int32Array>;
  readonly varLen: number;
  readonly optPool: Column<Int32Array>;
  readonly optLen: number;

  /** Small memos keyed by contentVersion (text matches, smart collections): a cache readers fill. */
  readonly memo: Map<string, { version: number; value: unknown; bytes: number }>;
  /** The engine's answers to repeated questions, while provably current (`AnswerMemo`): a cache readers fill. */
  readonly answers: AnswerMemo<CatalogueSearchResult>;
  /** A text search's facet counts per matched variant set (`facet-sets.ts`): a cache readers fill. */
  readonly facetSets: AnswerMemo<FacetSet>;
  /** The token dictionary and posting lists of the text search (synced lazily by readers). */
  readonly text: TextIndex;
  /** Primary WAL position of the build's snapshot, and of each product's last re-read. */
  readonly buildLsn: number;
  readonly pLsn: Column<Float64Array>;

  /** True when so many slots are dead that a rebuild pays off. */
  readonly wantsCompaction: boolean;
  engineBytes(): number;
  bytes(): number;
  prices(rate: string, precision: number): Float64Array;
  search(q: IndexQuery, page: IndexPageRequest): IndexResult;
  textMatcher(): TextMatcher;
  matchingVariants(ps: readonly number[], q: IndexQuery): number[][];
  lsnOf(productId: string): number;
  dimKey(code: number): FacetKey;
}

/** The writer of a `TenantIndex`: the only way to change it (the service applying builds and deltas holds this). */
export interface TenantIndexWriter extends ReadonlyTenantIndex {
  /** A build's start: the snapshot's catalogue version and WAL position. */
  startBuild(version: number, lsn: number): void;
  putProduct(productId: string, rows: IndexRow[], lsn?: number): void;
  setStock(variantId: string, available: boolean, onHand: number): void;
  /** After a batch of `setStock`. */
  stockChanged(): void;
  /** After a batch of `putProduct`: the content version moves on, memos and kept answers go. */
  contentChanged(): void;
  /** The catalogue version a delta brought the index to. */
  setVersion(version: number): void;
  layout(): LayoutJob;
  clustered(): TenantIndexWriter;
}
