import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import type { AssetStore } from './asset-store.js';
import { BlobChunksRepository } from './blob-chunks.repository.js';

const CHUNK = 256 * 1024;
/** Chunks fetched per query while streaming out (1 MiB). */
const BATCH = 4;

/** Bytes in PostgreSQL (`theme_asset_blob_chunks`, bytea), written and read in 256 KiB chunks. */
export class PostgresAssetStore implements AssetStore {
  readonly scheme = 'pg';
  readonly transactional = true;

  private readonly chunks: BlobChunksRepository;

  constructor(dataSource: DataSource) {
    this.chunks = new BlobChunksRepository(dataSource);
  }

  async put(tenantId: string, source: AsyncIterable<Buffer>, manager?: EntityManager): Promise<string> {
    if (!manager) return this.chunks.transaction((m) => this.put(tenantId, source, m));
    const blobId = randomUUID();
    let seq = 0;
    let buf = Buffer.allocUnsafe(CHUNK);
    let fill = 0;
    const flush = async () => {
      await this.chunks.insert(manager, blobId, seq++, tenantId, buf.subarray(0, fill));
      buf = Buffer.allocUnsafe(CHUNK);
      fill = 0;
    };
    for await (const chunk of source) {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(CHUNK - fill, chunk.length - offset);
        chunk.copy(buf, fill, offset, offset + n);
        fill += n;
        offset += n;
        if (fill === CHUNK) await flush();
      }
    }
    if (fill > 0) await flush();
    return `pg:${blobId}`;
  }

  async get(ref: string): Promise<Readable | null> {
    const blobId = this.blobId(ref);
    const first = await this.chunks.read(blobId, 0, BATCH);
    const repo = this.chunks;
    async function* chunks(): AsyncGenerator<Buffer> {
      let rows = first;
      let next = 0;
      while (rows.length > 0) {
        for (const row of rows) {
          if (row.seq !== next) throw new Error(`blob ${blobId} lost chunk ${next}`);
          next += 1;
          yield row.data;
        }
        if (rows.length < BATCH) return;
        rows = await repo.read(blobId, next, BATCH);
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(refs: string[], manager?: EntityManager): Promise<void> {
    const ids = refs.filter((r) => r.startsWith('pg:')).map((r) => this.blobId(r));
    if (ids.length === 0) return;
    await this.chunks.delete(ids, manager);
  }

  private blobId(ref: string): string {
    const id = ref.slice(3);
    if (!ref.startsWith('pg:') || !/^[0-9a-f-]{36}$/.test(id)) throw new Error(`not a PostgreSQL blob ref: ${ref}`);
    return id;
  }
}
