import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';

/**
 * **Asset store** contract (an extension point, see extension-points.ts), declared here so src/extensions/ imports
 * no feature module; the stores themselves are the themes module's (themes/storage/).
 *
 * Where the bytes of binary theme assets live. A blob is written once under a new ref and never changed;
 * replacing an asset writes a new blob and deletes the old one.
 */
export interface AssetStore {
  /** The ref prefix of this store (`pg`, `fs`): refs name their store, so switching stores keeps old assets readable. */
  readonly scheme: string;
  /** True when `put` joins the caller's transaction (a rollback then leaves nothing behind). */
  readonly transactional: boolean;
  /** Streams `source` into a new blob and returns its ref. An error from `source` leaves no bytes behind. */
  put(tenantId: string, source: AsyncIterable<Buffer>, manager?: EntityManager): Promise<string>;
  /** The blob's bytes as a stream, or null when it is gone. */
  get(ref: string): Promise<Readable | null>;
  /** Deletes blobs; unknown refs are ignored. */
  delete(refs: string[], manager?: EntityManager): Promise<void>;
}

/** The configured store (for new blobs) and every store (to read and delete old ones by their ref). */
export abstract class AssetStores {
  abstract readonly current: AssetStore;
  abstract forRef(ref: string): AssetStore;
}
