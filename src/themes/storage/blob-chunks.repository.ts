import type { DataSource, EntityManager } from 'typeorm';

/** One stored chunk of a blob: its position and bytes. */
export interface BlobChunkRow {
  seq: number;
  data: Buffer;
}

/**
 * The statements of `PostgresAssetStore` over `theme_asset_blob_chunks` (issue 36). Built by the store with the data
 * source (the store is a plain class that `ConfiguredAssetStores` constructs), not a Nest provider.
 */
export class BlobChunksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one new transaction. */
  transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    return this.dataSource.transaction(work);
  }

  /** Stores chunk `seq` of a blob inside the caller's transaction. */
  async insert(m: EntityManager, blobId: string, seq: number, tenantId: string, data: Buffer): Promise<void> {
    await m.query(`INSERT INTO theme_asset_blob_chunks (blob_id, seq, tenant_id, data) VALUES ($1, $2, $3, $4)`, [blobId, seq, tenantId, data]);
  }

  /** At most `limit` chunks of a blob from `fromSeq` on, in order (outside any transaction). */
  read(blobId: string, fromSeq: number, limit: number): Promise<BlobChunkRow[]> {
    return this.dataSource.query(`SELECT seq, data FROM theme_asset_blob_chunks WHERE blob_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`, [
      blobId,
      fromSeq,
      limit,
    ]);
  }

  /** Deletes every chunk of these blobs (in the caller's transaction when `m` is given). */
  async delete(blobIds: string[], m?: EntityManager): Promise<void> {
    await (m ?? this.dataSource.manager).query(`DELETE FROM theme_asset_blob_chunks WHERE blob_id = ANY($1::uuid[])`, [blobIds]);
  }
}
