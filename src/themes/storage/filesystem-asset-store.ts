import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AssetStore } from './asset-store.js';

const REF = /^fs:([0-9a-f-]{36})\/([0-9a-f-]{36})$/;

/** Bytes as files under one directory: `<dir>/<tenant id>/<blob id>`, written to a `.part` file and renamed when complete. */
export class FilesystemAssetStore implements AssetStore {
  readonly scheme = 'fs';
  readonly transactional = false;

  constructor(readonly dir: string) {}

  async put(tenantId: string, source: AsyncIterable<Buffer>): Promise<string> {
    const blobId = randomUUID();
    const folder = join(this.dir, tenantId);
    await mkdir(folder, { recursive: true });
    const final = join(folder, blobId);
    const part = `${final}.part`;
    try {
      await pipeline(Readable.from(source, { objectMode: false }), createWriteStream(part, { flags: 'wx' }));
      await rename(part, final);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    return `fs:${tenantId}/${blobId}`;
  }

  async get(ref: string): Promise<Readable | null> {
    const path = this.path(ref);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async delete(refs: string[]): Promise<void> {
    for (const ref of refs) if (ref.startsWith('fs:')) await rm(this.path(ref), { force: true });
  }

  /** The file of a ref (exported for tests and tools). */
  path(ref: string): string {
    const m = REF.exec(ref);
    if (!m) throw new Error(`not a filesystem blob ref: ${ref}`);
    return join(this.dir, m[1], m[2]);
  }
}
