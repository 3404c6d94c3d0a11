import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/paging/page-query.dto.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { translate } from '../../common/i18n.js';
import type { Collection } from '../entities/collection.entity.js';
import { ImageDto, mapImage } from './image.dto.js';
import { NonBlankText, OptionalBoolean, OptionalNonBlankText, OptionalText } from '../../common/http/dto-fields.js';

export const COLLECTION_TYPES = ['manual', 'smart'] as const;
/** Accepted default product sorts of a collection. */
export const COLLECTION_SORT_ORDERS = [
  'manual',
  'best-selling',
  'alpha-asc',
  'alpha-desc',
  'price-asc',
  'price-desc',
  'created',
  'created-asc',
  'created-desc',
] as const;
/** A handle: letters, digits, `-`, `_`, `.` and `~`, starting with a letter or digit; no spaces or slashes. */
export const HANDLE_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u;
export const HANDLE_MESSAGE = 'handle must start with a letter or digit and hold only letters, digits, ".", "_", "~" and "-"';

export class CreateCollectionDto {
  /** Display name in the active language; required, not blank. */
  @NonBlankText('title', 255)
  title: string;

  /** URL slug, unique within the shop (case-insensitive); on create, generated from the title when omitted. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(HANDLE_PATTERN, { message: HANDLE_MESSAGE })
  handle?: string | null;

  /** HTML description in the active language; on update, null removes that language's text. */
  @OptionalText(500_000)
  body_html?: string | null;

  /** `manual` (default) or `smart`; immutable afterwards. */
  @IsOptional()
  @IsIn(COLLECTION_TYPES)
  collection_type?: string | null;

  /** Visible on the storefront; default true (on update, null is no change). */
  @OptionalBoolean()
  published?: boolean | null;

  /** Default product sort: `manual`, `best-selling`, `alpha-asc`, `alpha-desc`, `price-asc`, `price-desc`, `created`, `created-asc`, `created-desc`. */
  @IsOptional()
  @IsIn(COLLECTION_SORT_ORDERS)
  sort_order?: string | null;

  /** Storefront template override; null means the default template. */
  @OptionalText(100)
  template_name?: string | null;

  /** Smart collections only (ignored for manual ones): JSON text `{"all":[...]}` or `{"any":[...]}` of `{"field", op: value}` conditions. */
  @OptionalText(20_000)
  rules_json?: string | null;

  @OptionalText(255)
  meta_title?: string | null;

  @OptionalText(1000)
  meta_description?: string | null;
}

/**
 * Every member optional (`PartialType`); `collection_type` is immutable, so not a member (ignored when sent). A null
 * body_html removes the active language's text, a null flag is no change. `title` is redeclared only for its type:
 * null passes validation and the service answers 422 (as for a null handle).
 */
export class UpdateCollectionDto extends PartialType(OmitType(CreateCollectionDto, ['title', 'collection_type'] as const)) {
  /** New title in the active language; not blank, not null. */
  @OptionalNonBlankText('title', 255)
  title?: string | null;
}

export class CollectionListQueryDto extends PageQueryDto {
  /** `true` or `false`: only published or only unpublished collections; omit for all. */
  @IsOptional()
  @IsIn(['true', 'false'])
  published?: string;

  /** `manual` or `smart`; omit for both. */
  @IsOptional()
  @IsIn(COLLECTION_TYPES)
  collection_type?: string;
}

export class CollectionDto {
  id: string;
  /** Active language, falling back to the default language. */
  title: string | null;
  handle: string | null;
  body_html: string | null;
  /** `manual` or `smart`. */
  collection_type: string | null;
  published: boolean;
  sort_order: string | null;
  products_count: number;
  /** Always present; every nullable member is null while there is no image. */
  @ApiProperty({ type: () => ImageDto })
  image: ImageDto;
  template_name: string | null;
  rules_json: string | null;
  meta_title: string | null;
  meta_description: string | null;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapCollection(c: Collection, ctx: RequestContext, productsCount: number): CollectionDto {
  return {
    id: c.id,
    title: translate(c.title, ctx),
    handle: c.handle,
    body_html: translate(c.bodyHtml, ctx),
    collection_type: c.collectionType,
    published: c.published,
    sort_order: c.sortOrder,
    products_count: productsCount,
    image: mapImage(c.id, c),
    template_name: c.templateName,
    rules_json: c.rulesJson,
    meta_title: c.metaTitle,
    meta_description: c.metaDescription,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt ? c.updatedAt.toISOString() : null,
  };
}
