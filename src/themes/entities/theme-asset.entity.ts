import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

export type ThemeAssetKind = 'text' | 'binary';

const bigintAsNumber = { to: (v: number) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

/** One file of a theme: text content inline, binary content in the asset store (`blobRef`). */
@Entity('theme_assets')
export class ThemeAsset extends TenantEntity {
  @Column({ type: 'uuid' })
  themeId: string;

  /** Path relative to the theme root (CONTRACT 4). */
  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'text' })
  kind: ThemeAssetKind;

  /** Text content (text assets only); not selected by default so lists never load it. */
  @Column({ type: 'text', nullable: true, select: false })
  value: string | null;

  /** Where the asset store keeps the bytes (binary assets only), e.g. `pg:<uuid>` or `fs:<tenant>/<uuid>`. */
  @Column({ type: 'text', nullable: true })
  blobRef: string | null;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size: number;

  @Column({ type: 'text' })
  contentType: string;

  /** Quoted strong ETag: the SHA-256 of the bytes. */
  @Column({ type: 'text' })
  etag: string;
}
