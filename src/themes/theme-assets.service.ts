import { Injectable, Logger } from '@nestjs/common';
import { createHash, Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Extensions } from '../extensions/index.js';
import { binaryContentType, textContentType, validateAssetKey } from './asset-key.js';
import { ThemeAsset, ThemeAssetKind } from './entities/theme-asset.entity.js';
import { AssetStores } from './storage/asset-store.js';
import { ThemeAssetsRepository, type ThemeAssetContent } from './theme-assets.repository.js';

/** SPEC Limits: binary theme assets up to 20 MB. */
export const MAX_BINARY_ASSET_BYTES = 20 * 1024 * 1024;

export interface BinaryUpload {
  /** The raw request body. */
  body: Readable;
  contentType: string | undefined;
  /** The Content-Length header, when sent. */
  contentLength: string | undefined;
}

/** Text and binary files of themes. Keys are one namespace per theme: writing a key replaces whatever it held. */
@Injectable()
export class ThemeAssetsService {
  private readonly logger = new Logger('ThemeAssets');

  constructor(
    private readonly repo: ThemeAssetsRepository,
    private readonly extensions: Extensions,
  ) {}

  /** The asset stores: an extension point, the last registered wins (built in: `ConfiguredAssetStores`). */
  private get stores(): AssetStores {
    return this.extensions.one(AssetStores)!;
  }

  async list(ctx: RequestContext, themeId: string, kind: ThemeAssetKind): Promise<ThemeAsset[]> {
    await this.repo.themeOrThrow(ctx, themeId);
    return this.repo.list(ctx, themeId, kind);
  }

  /** One asset of a theme of the caller's shop, by kind; 422 for a bad key, 404 for an unknown theme or asset. */
  async find(ctx: RequestContext, themeId: string, rawKey: unknown, kind: ThemeAssetKind): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    await this.repo.themeOrThrow(ctx, themeId);
    const asset = await this.repo.find(ctx, themeId, key, kind);
    if (!asset) throw AppError.notFound('asset');
    return asset;
  }

  /** Any asset of any shop's theme, for the storefront (the theme id names the shop); 404 when unknown. */
  async findPublic(themeId: string, rawKey: unknown): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    const asset = await this.repo.findPublic(themeId, key);
    if (!asset) throw AppError.notFound('asset');
    return asset;
  }

  /** The bytes of an asset (text content as UTF-8). */
  async open(asset: ThemeAsset): Promise<Readable> {
    if (asset.kind === 'text') return Readable.from([Buffer.from(asset.value ?? '', 'utf8')]);
    const stream = asset.blobRef ? await this.stores.forRef(asset.blobRef).get(asset.blobRef) : null;
    if (!stream) throw AppError.notFound('asset');
    return stream;
  }

  /** Upsert of a text asset; size and content type derived, updated_at set. */
  async putText(ctx: RequestContext, themeId: string, rawKey: unknown, value: string): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    if (typeof value !== 'string') throw AppError.unprocessable('value must be a string');
    const bytes = Buffer.byteLength(value, 'utf8');
    const etag = quoteEtag(createHash('sha256').update(value, 'utf8').digest());
    const { asset, replacedRef } = await this.repo.transaction(ctx, (tx) =>
      this.upsertRow(tx, themeId, { key, kind: 'text', value, blobRef: null, size: bytes, contentType: textContentType(key), etag }),
    );
    await this.dropBlobs(replacedRef ? [replacedRef] : []);
    asset.value = value;
    return asset;
  }

  /**
   * Upsert of a binary asset from a raw body, streamed into the asset store. Over 20 MB is 413: by Content-Length before
   * reading anything, else counted while streaming (chunked bodies), and the partial bytes are discarded.
   */
  async putBinary(ctx: RequestContext, themeId: string, rawKey: unknown, upload: BinaryUpload): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    const contentType = binaryContentType(upload.contentType);
    if (upload.contentLength !== undefined && Number(upload.contentLength) > MAX_BINARY_ASSET_BYTES) throw tooLarge();
    await this.repo.themeOrThrow(ctx, themeId);
    const store = this.stores.current;
    const counter = { size: 0, hash: createHash('sha256') };
    let written: string | null = null;
    try {
      const { asset, replacedRef } = await this.repo.transaction(ctx, async (tx) => {
        written = await store.put(ctx.tenantId, limited(upload.body, counter), store.transactional ? tx.manager! : undefined);
        return this.upsertRow(tx, themeId, {
          key,
          kind: 'binary',
          value: null,
          blobRef: written,
          size: counter.size,
          contentType,
          etag: quoteEtag(counter.hash.digest()),
        });
      });
      await this.dropBlobs(replacedRef ? [replacedRef] : []);
      return asset;
    } catch (err) {
      if (written && !store.transactional) await this.dropBlobs([written]);
      // leave the rest of an unread body to be discarded, so the error response reaches the client
      if (!upload.body.readableEnded) upload.body.resume();
      throw err;
    }
  }

  async delete(ctx: RequestContext, themeId: string, rawKey: unknown, kind: ThemeAssetKind): Promise<void> {
    const key = validateAssetKey(rawKey);
    const ref = await this.repo.transaction(ctx, async (tx) => {
      await this.lockTheme(tx, themeId);
      const deleted = await this.repo.delete(tx, themeId, key, kind);
      if (!deleted) throw AppError.notFound('asset');
      return deleted.blobRef;
    });
    await this.dropBlobs(ref ? [ref] : []);
  }

  /** Copies files into a theme inside the caller's transaction (library themes). */
  async insertFiles(
    tx: RequestContext,
    themeId: string,
    files: Array<{ key: string; text: string | null; bytes: Buffer; contentType: string }>,
  ): Promise<void> {
    const store = this.stores.current;
    for (const file of files) {
      const etag = quoteEtag(createHash('sha256').update(file.bytes).digest());
      if (file.text !== null) {
        await this.upsertRow(tx, themeId, {
          key: file.key,
          kind: 'text',
          value: file.text,
          blobRef: null,
          size: file.bytes.length,
          contentType: textContentType(file.key),
          etag,
        });
      } else {
        const ref = await store.put(
          tx.tenantId,
          (async function* () {
            yield file.bytes;
          })(),
          store.transactional ? tx.manager! : undefined,
        );
        await this.upsertRow(tx, themeId, {
          key: file.key,
          kind: 'binary',
          value: null,
          blobRef: ref,
          size: file.bytes.length,
          contentType: file.contentType,
          etag,
        });
      }
    }
  }

  /** Blob refs of a theme's binary assets (to delete after the theme is gone). */
  blobRefs(tx: RequestContext, themeId: string): Promise<string[]> {
    return this.repo.blobRefs(tx, themeId);
  }

  /** Deletes blobs no row references any more; a failure is logged, never surfaced (the rows are already gone). */
  async dropBlobs(refs: string[]): Promise<void> {
    for (const ref of refs) {
      try {
        await this.stores.forRef(ref).delete([ref]);
      } catch (err) {
        this.logger.error({ err, ref }, 'could not delete theme asset bytes');
      }
    }
  }

  /** Locks the theme row (404 when it is not the shop's), serialising writes of its assets. */
  private async lockTheme(tx: RequestContext, themeId: string): Promise<void> {
    if (!(await this.repo.lockTheme(tx, themeId))) throw AppError.notFound('theme');
  }

  /** Writes `key` of the theme, whatever kind it held; the blob ref the row no longer names (to drop after commit). */
  private async upsertRow(
    tx: RequestContext,
    themeId: string,
    row: ThemeAssetContent & { key: string },
  ): Promise<{ asset: ThemeAsset; replacedRef: string | null }> {
    await this.lockTheme(tx, themeId);
    const { key, ...content } = row;
    const existing = await this.repo.existing(tx, themeId, key);
    const asset = existing ? await this.repo.update(tx, existing.id, content) : await this.repo.insert(tx, themeId, key, content);
    const replaced = existing?.blobRef ?? null;
    return { asset, replacedRef: replaced && replaced !== row.blobRef ? replaced : null };
  }
}

function quoteEtag(digest: Buffer): string {
  return `"${digest.toString('base64url')}"`;
}

function tooLarge(): AppError {
  return AppError.payloadTooLarge(`binary theme assets are limited to ${MAX_BINARY_ASSET_BYTES} bytes (20 MB)`);
}

/** The body's chunks, counted and hashed; 413 as soon as the count passes the limit. Never destroys the request. */
async function* limited(body: Readable, counter: { size: number; hash: Hash }): AsyncGenerator<Buffer> {
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    counter.size += buf.length;
    if (counter.size > MAX_BINARY_ASSET_BYTES) throw tooLarge();
    counter.hash.update(buf);
    yield buf;
  }
}
