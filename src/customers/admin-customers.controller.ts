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
import { CustomersService } from './customers.service.js';
import { CreateCustomerDto, CustomerDto, UpdateCustomerDto } from './dto/customer.dto.js';

@ApiTags('admin: customers')
@Controller('admin/customers')
export class AdminCustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly pager: Pager,
  ) {}

  /** Every customer of the shop, oldest first; cursored (`Link: <...>; rel="next"`). */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/customers/read' })
  @Envelope('customers', [CustomerDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<CustomerDto>> {
    return this.customers.list(ctx, this.pager.request(list, 'admin.customers'));
  }

  /** 422 on a duplicate email (case-insensitive). */
  @Post()
  @HttpCode(201)
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  @Envelope('customer', CustomerDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreateCustomerDto): Promise<CustomerDto> {
    return this.customers.create(ctx, body);
  }

  @Get(':id')
  @Auth({ tier: 'admin', scope: 'Shop/customers/read' })
  @Envelope('customer', CustomerDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<CustomerDto> {
    return this.customers.get(ctx, id);
  }

  /** Applies only the supplied members; a changed email is 422. */
  @Put(':id')
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  @Envelope('customer', CustomerDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() body: UpdateCustomerDto): Promise<CustomerDto> {
    return this.customers.update(ctx, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ tier: 'admin', scope: 'Shop/customers/write' })
  async delete(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.customers.delete(ctx, id);
  }
}
