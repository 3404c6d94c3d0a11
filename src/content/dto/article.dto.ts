import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import type { RequestContext } from '../../common/context/request-context.js';
import { translate } from '../../common/i18n.js';
import { ImageDto, mapImage } from '../../collections/index.js';
import type { BlogArticle } from '../entities/blog-article.entity.js';
import { NonBlankText, OptionalBoolean, OptionalNonBlankText, OptionalText } from '../../common/http/dto-fields.js';

export class CreateArticleDto {
  /** In the active language; required, not blank. */
  @NonBlankText('title', 255)
  title: string;

  /** In the active language. */
  @OptionalText(100_000)
  summary_html?: string | null;

  /** In the active language. */
  @OptionalText(500_000)
  body_html?: string | null;

  /** Default true. */
  @OptionalBoolean()
  published?: boolean | null;
}

/**
 * Every member optional (`PartialType`); a null summary or body removes the active language's text, a null flag is no
 * change. `title` is redeclared only for its type: null passes validation and the service answers 422.
 */
export class UpdateArticleDto extends PartialType(OmitType(CreateArticleDto, ['title'] as const)) {
  /** Not blank, not null. */
  @OptionalNonBlankText('title', 255)
  title?: string | null;
}

export class ArticleDto {
  id: string;
  /** Active language, falling back to the default language. */
  title: string | null;
  summary_html: string | null;
  body_html: string | null;
  published: boolean;
  /** Always present; every nullable member is null while there is no image. */
  @ApiProperty({ type: () => ImageDto })
  image: ImageDto;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapArticle(a: BlogArticle, ctx: RequestContext): ArticleDto {
  return {
    id: a.id,
    title: translate(a.title, ctx),
    summary_html: translate(a.summaryHtml, ctx),
    body_html: translate(a.bodyHtml, ctx),
    published: a.published,
    image: mapImage(a.id, a),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt ? a.updatedAt.toISOString() : null,
  };
}
