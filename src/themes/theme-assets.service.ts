import { Injectable, Logger } from '@nestjs/common';
import { createHash, Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { getOrThrow, inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { binaryContentType, textContentType, validateAssetKey } from './asset-key.js';
import { ThemeAsset, ThemeAssetKind } from './entities/theme-asset.entity.js';
import { Theme } from './entities/theme.entity.js';
import { AssetStores } from './storage/asset-store.js';

/** SPEC Limits: binary theme assets up to 20 MB. */
export const MAX_BINARY_ASSET_BYTES = 20 * 1024 * 1024;

export interface BinaryUpload {
  /** The raw request body. */
  body: Readable;
  contentType: string | undefined;
  /** The Content-Length header, when sent. */
  contentLength: string | undefined;
}

const ASSET_COLUMNS = 'id, tenant_id, theme_id, key, kind, blob_ref, size, content_type, etag, created_at, updated_at';

/** Text and binary files of themes. Keys are one namespace per theme: writing a key replaces whatever it held. */
@Injectable()
export class ThemeAssetsService {
  private readonly logger = new Logger('ThemeAssets');

  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: AssetStores,
  ) {}

  async list(ctx: RequestContext, themeId: string, kind: ThemeAssetKind): Promise<ThemeAsset[]> {
    await getOrThrow(ctx, this.dataSource, Theme, themeId, 'theme');
    return managerOf(ctx, this.dataSource)
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenant AND a.theme_id = :themeId AND a.kind = :kind', { tenant: ctx.tenantId, themeId, kind })
      .orderBy('a.key', 'ASC')
      .getMany();
  }

  /** One asset of a theme of the caller's shop, by kind; 422 for a bad key, 404 for an unknown theme or asset. */
  async find(ctx: RequestContext, themeId: string, rawKey: unknown, kind: ThemeAssetKind): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    await getOrThrow(ctx, this.dataSource, Theme, themeId, 'theme');
    const qb = managerOf(ctx, this.dataSource)
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenant AND a.theme_id = :themeId AND a.key = :key AND a.kind = :kind', { tenant: ctx.tenantId, themeId, key, kind });
    if (kind === 'text') qb.addSelect('a.value');
    const asset = await qb.getOne();
    if (!asset) throw AppError.notFound('asset');
    return asset;
  }

  /** Any asset of any shop's theme, for the storefront (the theme id names the shop); 404 when unknown. */
  async findPublic(themeId: string, rawKey: unknown): Promise<ThemeAsset> {
    const key = validateAssetKey(rawKey);
    const asset = await this.dataSource
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .addSelect('a.value')
      .innerJoin(Theme, 't', 't.id = a.theme_id AND t.tenant_id = a.tenant_id')
      .where('a.theme_id = :themeId AND a.key = :key', { themeId, key })
      .getOne();
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
    const { asset, replacedRef } = await inTransaction(ctx, this.dataSource, (tx) =>
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
    await getOrThrow(ctx, this.dataSource, Theme, themeId, 'theme');
    const store = this.stores.current;
    const counter = { size: 0, hash: createHash('sha256') };
    let written: string | null = null;
    try {
      const { asset, replacedRef } = await inTransaction(ctx, this.dataSource, async (tx) => {
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
    const ref = await inTransaction(ctx, this.dataSource, async (tx) => {
      await this.lockTheme(tx, themeId);
      const rows = returned<{ blob_ref: string | null }>(
        await tx.manager!.query(`DELETE FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND key = $3 AND kind = $4 RETURNING blob_ref`, [
          tx.tenantId,
          themeId,
          key,
          kind,
        ]),
      );
      if (rows.length === 0) throw AppError.notFound('asset');
      return rows[0].blob_ref;
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
  async blobRefs(tx: RequestContext, themeId: string): Promise<string[]> {
    const rows: Array<{ blob_ref: string }> = await tx.manager!.query(
      `SELECT blob_ref FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND blob_ref IS NOT NULL`,
      [tx.tenantId, themeId],
    );
    return rows.map((r) => r.blob_ref);
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
    const rows = await tx.manager!.query(`SELECT id FROM themes WHERE id = $1 AND tenant_id = $2 FOR NO KEY UPDATE`, [themeId, tx.tenantId]);
    if (rows.length === 0) throw AppError.notFound('theme');
  }

  private async upsertRow(
    tx: RequestContext,
    themeId: string,
    row: { key: string; kind: ThemeAssetKind; value: string | null; blobRef: string | null; size: number; contentType: string; etag: string },
  ): Promise<{ asset: ThemeAsset; replacedRef: string | null }> {
    const manager = tx.manager as EntityManager;
    await this.lockTheme(tx, themeId);
    const existing: Array<{ id: string; blob_ref: string | null }> = await manager.query(
      `SELECT id, blob_ref FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND key = $3`,
      [tx.tenantId, themeId, row.key],
    );
    const params = [row.kind, row.value, row.blobRef, row.size, row.contentType, row.etag];
    const saved = existing.length
      ? await manager.query(
          `UPDATE theme_assets SET kind = $1, value = $2, blob_ref = $3, size = $4, content_type = $5, etag = $6, updated_at = now()
           WHERE id = $7 RETURNING ${ASSET_COLUMNS}`,
          [...params, existing[0].id],
        )
      : await manager.query(
          `INSERT INTO theme_assets (kind, value, blob_ref, size, content_type, etag, tenant_id, theme_id, key, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) RETURNING ${ASSET_COLUMNS}`,
          [...params, tx.tenantId, themeId, row.key],
        );
    const record = returned<Record<string, unknown>>(saved)[0];
    const replaced = existing[0]?.blob_ref ?? null;
    return { asset: toAsset(record), replacedRef: replaced && replaced !== row.blobRef ? replaced : null };
  }
}

/** The rows of a `RETURNING` query: TypeORM gives `[rows, count]` for UPDATE and DELETE, the rows otherwise. */
export function returned<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (r.length === 2 && Array.isArray(r[0]) && typeof r[1] === 'number' ? r[0] : r) as T[];
}

function toAsset(r: Record<string, unknown>): ThemeAsset {
  return Object.assign(new ThemeAsset(), {
    id: r.id,
    tenantId: r.tenant_id,
    themeId: r.theme_id,
    key: r.key,
    kind: r.kind,
    blobRef: r.blob_ref,
    size: Number(r.size),
    contentType: r.content_type,
    etag: r.etag,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
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
