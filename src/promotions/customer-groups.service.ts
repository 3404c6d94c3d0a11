import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { isUniqueViolation, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import type { PageRequest } from '../common/paging/pager.service.js';
import { isCustomerOf } from '../customers/index.js';
import { CustomerGroupBodyDto, CustomerGroupDto, CustomerGroupMemberDto, mapCustomerGroup, mapCustomerGroupMember } from './dto/customer-group.dto.js';
import { CustomerGroupsRepository } from './promotions.repository.js';

const nameTaken = (name: string) => AppError.unprocessable(`customer group "${name}" already exists`);

/** Customer groups (issue 32): admin CRUD and membership, read by the `customer_group` promotion condition. */
@Injectable()
export class CustomerGroupsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly groups: CustomerGroupsRepository,
  ) {}

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<CustomerGroupDto>> {
    return (await this.groups.list(ctx, page)).map(mapCustomerGroup);
  }

  async get(ctx: RequestContext, id: string): Promise<CustomerGroupDto> {
    return mapCustomerGroup(await this.groups.find(ctx, id));
  }

  create(ctx: RequestContext, dto: CustomerGroupBodyDto): Promise<CustomerGroupDto> {
    return this.saveNamed(ctx, { name: dto.name.trim() });
  }

  async update(ctx: RequestContext, id: string, dto: CustomerGroupBodyDto): Promise<CustomerGroupDto> {
    const g = await this.groups.find(ctx, id);
    return this.saveNamed(ctx, { ...g, name: dto.name.trim() });
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    if (!(await this.groups.delete(ctx, id))) throw AppError.notFound('customer group');
  }

  async members(ctx: RequestContext, groupId: string, page: PageRequest): Promise<Page<CustomerGroupMemberDto>> {
    await this.groups.find(ctx, groupId);
    return (await this.groups.members(ctx, groupId, page)).map(mapCustomerGroupMember);
  }

  /** Idempotent; 404 for an unknown group or customer (another shop's included). */
  async addMember(ctx: RequestContext, groupId: string, customerId: string): Promise<CustomerGroupMemberDto> {
    await this.groups.find(ctx, groupId);
    if (!(await isCustomerOf(managerOf(ctx, this.dataSource), ctx.tenantId, customerId))) throw AppError.notFound('customer');
    return mapCustomerGroupMember(await this.groups.addMember(ctx, groupId, customerId));
  }

  async removeMember(ctx: RequestContext, groupId: string, customerId: string): Promise<void> {
    await this.groups.find(ctx, groupId);
    if (!(await this.groups.removeMember(ctx, groupId, customerId))) throw AppError.notFound('customer in this group');
  }

  /** The groups of a customer (sorted ids). */
  groupIdsOf(ctx: RequestContext, customerId: string): Promise<string[]> {
    return this.groups.groupIdsOf(ctx, customerId);
  }

  private async saveNamed(ctx: RequestContext, g: Parameters<CustomerGroupsRepository['save']>[1] & { name: string }): Promise<CustomerGroupDto> {
    const other = await this.groups.findByName(ctx, g.name);
    if (other && other.id !== g.id) throw nameTaken(g.name);
    try {
      return mapCustomerGroup(await this.groups.save(ctx, g));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(g.name);
      throw err;
    }
  }
}
