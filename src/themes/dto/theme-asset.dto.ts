import { IsString } from 'class-validator';
import type { ThemeAsset } from '../entities/theme-asset.entity.js';

export class UpsertThemeAssetDto {
  /** Path relative to the theme root: segments of `A-Za-z0-9._-` joined by `/`, 1..255 characters. */
  @IsString()
  key: string;

  /** The text content. */
  @IsString()
  value: string;
}

/** A text asset with its content (single read, upsert response). */
export class ThemeTextAssetDto {
  key: string;
  value: string;
  /** Bytes of the UTF-8 content. */
  size: number;
  /** Derived from the key's extension. */
  content_type: string;
}

/** A text asset in a list (no content). */
export class ThemeTextAssetRowDto {
  key: string;
  size: number | null;
  content_type: string;
  updated_at: string | null;
}

/** A binary asset; the bytes are never inside JSON: the storefront serves them at `url`. */
export class ThemeBinaryAssetDto {
  key: string;
  size: number | null;
  content_type: string;
  updated_at: string | null;
  /** `/storefront/themes/{theme_id}/assets/{key}`, served without auth. */
  url: string;
}

export function mapTextAsset(a: ThemeAsset): ThemeTextAssetDto {
  return { key: a.key, value: a.value ?? '', size: a.size, content_type: a.contentType };
}

export function mapTextAssetRow(a: ThemeAsset): ThemeTextAssetRowDto {
  return { key: a.key, size: a.size, content_type: a.contentType, updated_at: a.updatedAt ? a.updatedAt.toISOString() : null };
}

export function mapBinaryAsset(a: ThemeAsset): ThemeBinaryAssetDto {
  return {
    key: a.key,
    size: a.size,
    content_type: a.contentType,
    updated_at: a.updatedAt ? a.updatedAt.toISOString() : null,
    url: storefrontAssetUrl(a.themeId, a.key),
  };
}

/** CONTRACT 4's storefront asset URL (keys are already URL-safe: `A-Za-z0-9._-` and `/`). */
export function storefrontAssetUrl(themeId: string, key: string): string {
  return `/storefront/themes/${themeId}/assets/${key}`;
}
