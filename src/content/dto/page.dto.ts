import { OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { RequestContext } from '../../common/context/request-context.js';
import { translate } from '../../common/i18n.js';
import { HANDLE_MESSAGE, HANDLE_PATTERN } from '../../collections/index.js';
import type { ContentPage } from '../entities/content-page.entity.js';
import { OptionalBoolean, OptionalText } from '../../common/http/dto-fields.js';

export const PAGE_TYPES = ['common', 'liquid'] as const;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export class CreatePageDto {
  /** URL slug; required, unique within the shop (case-insensitive). */
  @IsString()
  @MaxLength(255)
  @Matches(HANDLE_PATTERN, { message: HANDLE_MESSAGE })
  handle: string;

  /** In the active language. */
  @OptionalText(255)
  title?: string | null;

  /** In the active language. */
  @OptionalText(500_000)
  body_html?: string | null;

  /** Default true. */
  @OptionalBoolean()
  published?: boolean | null;

  /** Template override; null means the default. */
  @OptionalText(100)
  template?: string | null;

  /** `common` (HTML, default) or `liquid` (rendered template); on update, null is no change. */
  @IsOptional()
  @IsIn(PAGE_TYPES)
  type?: string | null;

  /** Default false. */
  @OptionalBoolean()
  show_in_header?: boolean | null;

  /** Default false. */
  @OptionalBoolean()
  show_in_footer?: boolean | null;

  /** Default 0. */
  @IsOptional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sort_order?: number | null;

  /** In the active language. */
  @OptionalText(1000)
  meta_description?: string | null;

  /** In the active language. */
  @OptionalText(1000)
  meta_keywords?: string | null;

  /** In the active language. */
  @OptionalText(255)
  menu_title?: string | null;
}

/**
 * Every member optional (`PartialType`); a null text removes the active language's text, a null boolean or integer is
 * no change, a null template means the default. `handle` is redeclared only for its type: null passes validation and
 * the service answers 422.
 */
export class UpdatePageDto extends PartialType(OmitType(CreatePageDto, ['handle'] as const)) {
  /** Not null. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(HANDLE_PATTERN, { message: HANDLE_MESSAGE })
  handle?: string | null;
}

export class PageDto {
  id: string;
  handle: string | null;
  /** Active language, falling back to the default language. */
  title: string | null;
  body_html: string | null;
  published: boolean;
  template: string | null;
  /** `common` or `liquid`. */
  type: string | null;
  show_in_header: boolean;
  show_in_footer: boolean;
  sort_order: number;
  meta_description: string | null;
  meta_keywords: string | null;
  menu_title: string | null;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapPage(p: ContentPage, ctx: RequestContext): PageDto {
  return {
    id: p.id,
    handle: p.handle,
    title: translate(p.title, ctx),
    body_html: translate(p.bodyHtml, ctx),
    published: p.published,
    template: p.template,
    type: p.type,
    show_in_header: p.showInHeader,
    show_in_footer: p.showInFooter,
    sort_order: p.sortOrder,
    meta_description: translate(p.metaDescription, ctx),
    meta_keywords: translate(p.metaKeywords, ctx),
    menu_title: translate(p.menuTitle, ctx),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt ? p.updatedAt.toISOString() : null,
  };
}
