import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { Page } from '../common/paging/page.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import { CollectionsService } from './collections.service.js';
import { CollectionDto, CollectionListQueryDto, CreateCollectionDto, UpdateCollectionDto } from './dto/collection.dto.js';
import type { CollectionType } from './entities/collection.entity.js';

@ApiTags('admin: collections')
@Controller('admin/collections')
export class AdminCollectionsController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly pager: Pager,
  ) {}

  /** Every collection, published or not, oldest first; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/collections/read' })
  @Envelope('collections', [CollectionDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() query: CollectionListQueryDto): Promise<Page<CollectionDto>> {
    const page = this.pager.request(list, 'admin.collections');
    return this.collections.list(ctx, page, {
      published: query.published === undefined ? undefined : query.published === 'true',
      collectionType: query.collection_type as CollectionType | undefined,
    });
  }

  /** Creates a collection in the active language; the handle is generated from the title when omitted. */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/collections/write' })
  @Envelope('collection', CollectionDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateCollectionDto): Promise<CollectionDto> {
    return this.collections.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/collections/read' })
  @Envelope('collection', CollectionDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<CollectionDto> {
    return this.collections.get(ctx, id);
  }

  /** Applies only the supplied members, text in the active language; collection_type is not accepted (ignored). */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/collections/write' })
  @Envelope('collection', CollectionDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateCollectionDto): Promise<CollectionDto> {
    return this.collections.update(ctx, id, body);
  }

  /** 204; a second delete (or a foreign id) is 404. */
  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/collections/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.collections.delete(ctx, id);
  }
}
