import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ListParams } from '../common/paging/list-params.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { Pager } from '../common/paging/pager.service.js';
import { CustomerGroupsService } from './customer-groups.service.js';
import { CustomerGroupBodyDto, CustomerGroupDto, CustomerGroupMemberDto } from './dto/customer-group.dto.js';

/** Customer groups (README "Promotions"), under the customers scopes. */
@ApiTags('admin: customer groups')
@Controller('admin/customer_groups')
export class AdminCustomerGroupsController {
  constructor(
    private readonly groups: CustomerGroupsService,
    private readonly pager: Pager,
  ) {}

  /** Oldest first, cursored. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/customers/read' })
  @Envelope('customer_groups', [CustomerGroupDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<CustomerGroupDto>> {
    return this.groups.list(ctx, this.pager.request(list, 'admin.customer_groups'));
  }

  /** 422 on a blank name or one in use (any case). */
  @Post()
  @HttpCode(201)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'retry-safe key (up to 255 characters, kept 24 h): a retry returns the first answer' })
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  @Envelope('customer_group', CustomerGroupDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CustomerGroupBodyDto): Promise<CustomerGroupDto> {
    return this.groups.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/customers/read' })
  @Envelope('customer_group', CustomerGroupDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<CustomerGroupDto> {
    return this.groups.get(ctx, id);
  }

  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  @Envelope('customer_group', CustomerGroupDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: CustomerGroupBodyDto): Promise<CustomerGroupDto> {
    return this.groups.update(ctx, id, body);
  }

  /** Its memberships go with it. */
  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.groups.delete(ctx, id);
  }

  /** The group's customers, oldest membership first, cursored. */
  @Get(':id/customers')
  @Auth({ tier: 'admin', scope: 'Shop/customers/read' })
  @Envelope('members', [CustomerGroupMemberDto])
  members(
    @Ctx() ctx: RequestContext,
    @UuidParam('id') id: string,
    @ListParams() list: ListParams,
    @Query() _query: PageQueryDto,
  ): Promise<Page<CustomerGroupMemberDto>> {
    return this.groups.members(ctx, id, this.pager.request(list, 'admin.customer_group_members'));
  }

  /** Adds the customer (idempotent: a member stays one). */
  @Put(':id/customers/:customer_id')
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  @Envelope('member', CustomerGroupMemberDto)
  addMember(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('customer_id') customerId: string): Promise<CustomerGroupMemberDto> {
    return this.groups.addMember(ctx, id, customerId);
  }

  @Delete(':id/customers/:customer_id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  async removeMember(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @UuidParam('customer_id') customerId: string): Promise<void> {
    await this.groups.removeMember(ctx, id, customerId);
  }
}
