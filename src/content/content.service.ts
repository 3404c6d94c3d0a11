import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import type { Translations } from '../common/db/base.entity.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { withTranslation } from '../common/i18n.js';
import { Page } from '../common/paging/page.js';
import { PageRequest } from '../common/paging/pager.service.js';
import { ContentRepository } from './content.repository.js';
import { ArticleDto, CreateArticleDto, mapArticle, UpdateArticleDto } from './dto/article.dto.js';
import { CreatePageDto, mapPage, PageDto, UpdatePageDto } from './dto/page.dto.js';
import { BlogArticle } from './entities/blog-article.entity.js';
import { ContentPage, PageType } from './entities/content-page.entity.js';
import { safeHtmlMember } from '../common/html/safe-html.js';

const handleTaken = (handle: string) => AppError.unprocessable(`handle "${handle}" is already taken by another page`);

/** A translation map with the active language's text set when a value is given (null removes it). */
function text(map: Translations, ctx: RequestContext, value: string | null | undefined): Translations {
  return value === undefined ? map : withTranslation(map, ctx.language, value);
}

/** Admin CRUD of content pages and blog articles; texts are stored per language in one row. */
@Injectable()
export class ContentService {
  constructor(private readonly repo: ContentRepository) {}

  // ---- pages

  /** Every page, published or not, oldest first, in the active language. */
  async listPages(ctx: RequestContext, page: PageRequest): Promise<Page<PageDto>> {
    const rows = await this.repo.pages(ctx, page);
    return rows.map((p) => mapPage(p, ctx));
  }

  async getPage(ctx: RequestContext, id: string): Promise<PageDto> {
    return mapPage(await this.findPage(ctx, id), ctx);
  }

  findPage(ctx: RequestContext, id: string): Promise<ContentPage> {
    return this.repo.pageOrThrow(ctx, id);
  }

  async createPage(ctx: RequestContext, dto: CreatePageDto): Promise<PageDto> {
    await this.assertHandleFree(ctx, dto.handle);
    const page = this.repo.buildPage(ctx, {
      tenantId: ctx.tenantId,
      handle: dto.handle,
      title: text({}, ctx, dto.title ?? undefined),
      bodyHtml: text({}, ctx, safeHtmlMember(dto.body_html ?? undefined)),
      metaDescription: text({}, ctx, dto.meta_description ?? undefined),
      metaKeywords: text({}, ctx, dto.meta_keywords ?? undefined),
      menuTitle: text({}, ctx, dto.menu_title ?? undefined),
      published: dto.published ?? true,
      template: dto.template ?? null,
      type: (dto.type as PageType | null | undefined) ?? 'common',
      showInHeader: dto.show_in_header ?? false,
      showInFooter: dto.show_in_footer ?? false,
      sortOrder: dto.sort_order ?? 0,
    });
    return mapPage(await this.savePage(ctx, page), ctx);
  }

  async updatePage(ctx: RequestContext, id: string, dto: UpdatePageDto): Promise<PageDto> {
    const p = await this.findPage(ctx, id);
    if (dto.handle !== undefined) {
      if (dto.handle === null) throw AppError.unprocessable('handle must not be null');
      if (dto.handle.toLowerCase() !== p.handle.toLowerCase()) await this.assertHandleFree(ctx, dto.handle);
      p.handle = dto.handle;
    }
    p.title = text(p.title, ctx, dto.title);
    p.bodyHtml = text(p.bodyHtml, ctx, safeHtmlMember(dto.body_html));
    p.metaDescription = text(p.metaDescription, ctx, dto.meta_description);
    p.metaKeywords = text(p.metaKeywords, ctx, dto.meta_keywords);
    p.menuTitle = text(p.menuTitle, ctx, dto.menu_title);
    if (dto.published != null) p.published = dto.published;
    if (dto.template !== undefined) p.template = dto.template;
    if (dto.type != null) p.type = dto.type as PageType;
    if (dto.show_in_header != null) p.showInHeader = dto.show_in_header;
    if (dto.show_in_footer != null) p.showInFooter = dto.show_in_footer;
    if (dto.sort_order != null) p.sortOrder = dto.sort_order;
    return mapPage(await this.savePage(ctx, p), ctx);
  }

  /** Deletes the page in every language. */
  async deletePage(ctx: RequestContext, id: string): Promise<void> {
    await this.deleteRow(ctx, ContentPage, id, 'page');
  }

  // ---- articles

  /** Every article, published or not, oldest first, in the active language. */
  async listArticles(ctx: RequestContext, page: PageRequest): Promise<Page<ArticleDto>> {
    const rows = await this.repo.articles(ctx, page);
    return rows.map((a) => mapArticle(a, ctx));
  }

  async getArticle(ctx: RequestContext, id: string): Promise<ArticleDto> {
    return mapArticle(await this.findArticle(ctx, id), ctx);
  }

  findArticle(ctx: RequestContext, id: string): Promise<BlogArticle> {
    return this.repo.articleOrThrow(ctx, id);
  }

  async createArticle(ctx: RequestContext, dto: CreateArticleDto): Promise<ArticleDto> {
    const article = this.repo.buildArticle(ctx, {
      tenantId: ctx.tenantId,
      title: text({}, ctx, dto.title.trim()),
      summaryHtml: text({}, ctx, safeHtmlMember(dto.summary_html ?? undefined)),
      bodyHtml: text({}, ctx, safeHtmlMember(dto.body_html ?? undefined)),
      published: dto.published ?? true,
      imageSrc: null,
      imageAlt: null,
      imageWidth: null,
      imageHeight: null,
    });
    return mapArticle(await this.repo.saveArticle(ctx, article), ctx);
  }

  async updateArticle(ctx: RequestContext, id: string, dto: UpdateArticleDto): Promise<ArticleDto> {
    const a = await this.findArticle(ctx, id);
    if (dto.title === null) throw AppError.unprocessable('title must not be null');
    if (dto.title !== undefined) a.title = text(a.title, ctx, dto.title.trim());
    a.summaryHtml = text(a.summaryHtml, ctx, safeHtmlMember(dto.summary_html));
    a.bodyHtml = text(a.bodyHtml, ctx, safeHtmlMember(dto.body_html));
    if (dto.published != null) a.published = dto.published;
    return mapArticle(await this.repo.saveArticle(ctx, a), ctx);
  }

  /** Deletes the article in every language. */
  async deleteArticle(ctx: RequestContext, id: string): Promise<void> {
    await this.deleteRow(ctx, BlogArticle, id, 'article');
  }

  // ---- helpers

  private async deleteRow(ctx: RequestContext, entity: typeof ContentPage | typeof BlogArticle, id: string, what: string): Promise<void> {
    if (!(await this.repo.delete(ctx, entity, id))) throw AppError.notFound(what);
  }

  private async assertHandleFree(ctx: RequestContext, handle: string): Promise<void> {
    if (await this.repo.pageHandleTaken(ctx, handle)) throw handleTaken(handle);
  }

  private async savePage(ctx: RequestContext, p: ContentPage): Promise<ContentPage> {
    try {
      return await this.repo.savePage(ctx, p);
    } catch (err) {
      if (isUniqueViolation(err)) throw handleTaken(p.handle);
      throw err;
    }
  }
}
