import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { returning } from '../common/db/returning.js';
import { getOrThrow, inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { ThemeAsset, type ThemeAssetKind } from './entities/theme-asset.entity.js';
import { Theme } from './entities/theme.entity.js';

/** What an asset row stores besides its theme and key (the content type and etag derived by the service). */
export interface ThemeAssetContent {
  kind: ThemeAssetKind;
  value: string | null;
  blobRef: string | null;
  size: number;
  contentType: string;
  etag: string;
}

/** A `theme_assets` row as `RETURNING` gives it (snake_case; `size` is a bigint, so a string from pg). */
interface ThemeAssetRow {
  id: string;
  tenant_id: string;
  theme_id: string;
  key: string;
  kind: ThemeAssetKind;
  blob_ref: string | null;
  size: string | number;
  content_type: string;
  etag: string;
  created_at: Date;
  updated_at: Date;
}

const ASSET_COLUMNS = 'id, tenant_id, theme_id, key, kind, blob_ref, size, content_type, etag, created_at, updated_at';

/** The statements of `ThemeAssetsService` over `theme_assets` (issue 36); write methods take a context inside a transaction. */
@Injectable()
export class ThemeAssetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in the context's open transaction, or in a new one. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** The shop's theme `id`, or 404. */
  themeOrThrow(ctx: RequestContext, themeId: string): Promise<Theme> {
    return getOrThrow(ctx, this.dataSource, Theme, themeId, 'theme');
  }

  /** A theme's assets of one kind, by key (without text values). */
  list(ctx: RequestContext, themeId: string, kind: ThemeAssetKind): Promise<ThemeAsset[]> {
    return managerOf(ctx, this.dataSource)
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenant AND a.theme_id = :themeId AND a.kind = :kind', { tenant: ctx.tenantId, themeId, kind })
      .orderBy('a.key', 'ASC')
      .getMany();
  }

  /** One asset of a theme of the shop by key and kind (a text asset with its value), or null. */
  find(ctx: RequestContext, themeId: string, key: string, kind: ThemeAssetKind): Promise<ThemeAsset | null> {
    const qb = managerOf(ctx, this.dataSource)
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenant AND a.theme_id = :themeId AND a.key = :key AND a.kind = :kind', { tenant: ctx.tenantId, themeId, key, kind });
    if (kind === 'text') qb.addSelect('a.value');
    return qb.getOne();
  }

  /** An asset of any shop's theme by key, with its value (the storefront: the theme id names the shop), or null. */
  findPublic(themeId: string, key: string): Promise<ThemeAsset | null> {
    return this.dataSource
      .getRepository(ThemeAsset)
      .createQueryBuilder('a')
      .addSelect('a.value')
      .innerJoin(Theme, 't', 't.id = a.theme_id AND t.tenant_id = a.tenant_id')
      .where('a.theme_id = :themeId AND a.key = :key', { themeId, key })
      .getOne();
  }

  /** Locks the shop's theme row (serialising writes of its assets); false when it is not the shop's. */
  async lockTheme(tx: RequestContext, themeId: string): Promise<boolean> {
    const rows: Array<{ id: string }> = await tx.manager!.query(`SELECT id FROM themes WHERE id = $1 AND tenant_id = $2 FOR NO KEY UPDATE`, [
      themeId,
      tx.tenantId,
    ]);
    return rows.length > 0;
  }

  /** Deletes an asset by key and kind; its blob ref (null for text), or undefined when there was none. */
  async delete(tx: RequestContext, themeId: string, key: string, kind: ThemeAssetKind): Promise<{ blobRef: string | null } | undefined> {
    const [row] = await returning<{ blob_ref: string | null }>(
      tx.manager!,
      `DELETE FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND key = $3 AND kind = $4 RETURNING blob_ref`,
      [tx.tenantId, themeId, key, kind],
    );
    return row ? { blobRef: row.blob_ref } : undefined;
  }

  /** Blob refs of a theme's binary assets. */
  async blobRefs(tx: RequestContext, themeId: string): Promise<string[]> {
    const rows: Array<{ blob_ref: string }> = await tx.manager!.query(
      `SELECT blob_ref FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND blob_ref IS NOT NULL`,
      [tx.tenantId, themeId],
    );
    return rows.map((r) => r.blob_ref);
  }

  /** The asset stored under `key` in the theme (any kind): its id and blob ref, or undefined. */
  async existing(tx: RequestContext, themeId: string, key: string): Promise<{ id: string; blobRef: string | null } | undefined> {
    const rows: Array<{ id: string; blob_ref: string | null }> = await tx.manager!.query(
      `SELECT id, blob_ref FROM theme_assets WHERE tenant_id = $1 AND theme_id = $2 AND key = $3`,
      [tx.tenantId, themeId, key],
    );
    return rows[0] ? { id: rows[0].id, blobRef: rows[0].blob_ref } : undefined;
  }

  /** Replaces the content of asset `id`; the stored row (without its text value). */
  async update(tx: RequestContext, id: string, c: ThemeAssetContent): Promise<ThemeAsset> {
    const [row] = await returning<ThemeAssetRow>(
      tx.manager!,
      `UPDATE theme_assets SET kind = $1, value = $2, blob_ref = $3, size = $4, content_type = $5, etag = $6, updated_at = now()
       WHERE id = $7 RETURNING ${ASSET_COLUMNS}`,
      [c.kind, c.value, c.blobRef, c.size, c.contentType, c.etag, id],
    );
    return toAsset(row);
  }

  /** Inserts an asset of the shop's theme; the stored row (without its text value). */
  async insert(tx: RequestContext, themeId: string, key: string, c: ThemeAssetContent): Promise<ThemeAsset> {
    const [row] = await returning<ThemeAssetRow>(
      tx.manager!,
      `INSERT INTO theme_assets (kind, value, blob_ref, size, content_type, etag, tenant_id, theme_id, key, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) RETURNING ${ASSET_COLUMNS}`,
      [c.kind, c.value, c.blobRef, c.size, c.contentType, c.etag, tx.tenantId, themeId, key],
    );
    return toAsset(row);
  }
}

function toAsset(r: ThemeAssetRow): ThemeAsset {
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
