import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { ContentService } from './content.service.js';
import { ArticleDto, CreateArticleDto, UpdateArticleDto } from './dto/article.dto.js';
import { CreatePageDto, PageDto, UpdatePageDto } from './dto/page.dto.js';

/** Content pages and blog articles. Texts are read and written in the active language (`?locale=`). */
@ApiTags('admin: content')
@Controller('admin/content')
export class AdminContentController {
  constructor(
    private readonly content: ContentService,
    private readonly pager: Pager,
  ) {}

  /** Every page, published or not, oldest first; cursored. A cursor of the article list is 422 here. */
  @Get('pages')
  @Auth({ tier: 'admin', scope: 'Shop/content/read' })
  @Envelope('pages', [PageDto])
  listPages(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<PageDto>> {
    return this.content.listPages(ctx, this.pager.request(list, 'admin.content.pages'));
  }

  /** 422 on a missing or duplicate handle. */
  @Post('pages')
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  @Envelope('page', PageDto, 201)
  createPage(@Ctx() ctx: RequestContext, @Body() body: CreatePageDto): Promise<PageDto> {
    return this.content.createPage(ctx, body);
  }

  @Get('pages/:id')
  @Auth({ tier: 'admin', scope: 'Shop/content/read' })
  @Envelope('page', PageDto)
  getPage(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<PageDto> {
    return this.content.getPage(ctx, id);
  }

  @Put('pages/:id')
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  @Envelope('page', PageDto)
  updatePage(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdatePageDto): Promise<PageDto> {
    return this.content.updatePage(ctx, id, body);
  }

  /** Deletes every language; 404 when already deleted. */
  @Delete('pages/:id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  async deletePage(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.content.deletePage(ctx, id);
  }

  /** Every article, published or not, oldest first; cursored. A cursor of the page list is 422 here. */
  @Get('articles')
  @Auth({ tier: 'admin', scope: 'Shop/content/read' })
  @Envelope('articles', [ArticleDto])
  listArticles(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<ArticleDto>> {
    return this.content.listArticles(ctx, this.pager.request(list, 'admin.content.articles'));
  }

  /** 422 on a missing title. */
  @Post('articles')
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  @Envelope('article', ArticleDto, 201)
  createArticle(@Ctx() ctx: RequestContext, @Body() body: CreateArticleDto): Promise<ArticleDto> {
    return this.content.createArticle(ctx, body);
  }

  @Get('articles/:id')
  @Auth({ tier: 'admin', scope: 'Shop/content/read' })
  @Envelope('article', ArticleDto)
  getArticle(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<ArticleDto> {
    return this.content.getArticle(ctx, id);
  }

  @Put('articles/:id')
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  @Envelope('article', ArticleDto)
  updateArticle(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateArticleDto): Promise<ArticleDto> {
    return this.content.updateArticle(ctx, id, body);
  }

  /** Deletes every language; 404 when already deleted. */
  @Delete('articles/:id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/content/write' })
  async deleteArticle(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.content.deleteArticle(ctx, id);
  }
}
