import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ListParams } from '../common/paging/list-params.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { Pager } from '../common/paging/pager.service.js';
import {
  CreateSearchSynonymDto,
  SearchSynonymDto,
  SearchSynonymsDocumentDto,
  SearchSynonymsImportResultDto,
  UpdateSearchSynonymDto,
} from './dto/search-synonym.dto.js';
import { SearchSynonymsAdmin } from './search-synonyms-admin.service.js';

const READ = { tier: 'admin', scope: 'Shop/search/read' } as const;
const WRITE = { tier: 'admin', scope: 'Shop/search/write' } as const;
const IDEMPOTENCY = {
  name: 'Idempotency-Key',
  required: false,
  description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer',
};

/** Search synonyms per shop (README "Search synonyms"), scopes `Shop/search/read|write`. */
@ApiTags('admin: search')
@Controller('admin/search/synonyms')
export class AdminSearchSynonymsController {
  constructor(
    private readonly synonyms: SearchSynonymsAdmin,
    private readonly pager: Pager,
  ) {}

  /** Every rule of the shop by key (a rule made without a key under its id): the import's document. */
  @Get('export')
  @Auth(READ)
  @Envelope('document', SearchSynonymsDocumentDto)
  export(@Ctx() ctx: RequestContext): Promise<SearchSynonymsDocumentDto> {
    return this.synonyms.export(ctx);
  }

  /** The export's `document`: rules upserted by key in one transaction; 422 naming the first bad member; an identical import changes nothing. */
  @Post('import')
  @HttpCode(200)
  @ApiHeader(IDEMPOTENCY)
  @Auth(WRITE)
  @Envelope('import', SearchSynonymsImportResultDto)
  import(@Ctx() ctx: RequestContext, @Body() body: SearchSynonymsDocumentDto): Promise<SearchSynonymsImportResultDto> {
    return this.synonyms.import(ctx, body);
  }

  /** Every rule, oldest first (the shipped defaults first); cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth(READ)
  @Envelope('search_synonyms', [SearchSynonymDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<SearchSynonymDto>> {
    return this.synonyms.list(ctx, this.pager.request(list, 'admin.search_synonyms'));
  }

  /** 422 naming the member: an unknown kind, too few terms, synonyms on a two_way rule, a blank phrase, a taken key. */
  @Post()
  @HttpCode(201)
  @ApiHeader(IDEMPOTENCY)
  @Auth(WRITE)
  @Envelope('search_synonym', SearchSynonymDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateSearchSynonymDto): Promise<SearchSynonymDto> {
    return this.synonyms.create(ctx, body);
  }

  @Get(':id')
  @Auth(READ)
  @Envelope('search_synonym', SearchSynonymDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<SearchSynonymDto> {
    return this.synonyms.get(ctx, id);
  }

  /** Replaces the members sent; the rule is then checked whole (422 naming the member). */
  @Patch(':id')
  @Auth(WRITE)
  @Envelope('search_synonym', SearchSynonymDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateSearchSynonymDto): Promise<SearchSynonymDto> {
    return this.synonyms.update(ctx, id, body);
  }

  /** The same as PATCH (the other admin resources update with PUT). */
  @Put(':id')
  @Auth(WRITE)
  @Envelope('search_synonym', SearchSynonymDto)
  replace(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateSearchSynonymDto): Promise<SearchSynonymDto> {
    return this.synonyms.update(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth(WRITE)
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.synonyms.delete(ctx, id);
  }
}
