import { NonBlankText } from '../../common/http/dto-fields.js';
import type { CustomerGroup, CustomerGroupMember } from '../entities/customer-group.entity.js';

export class CustomerGroupBodyDto {
  /** Required; unique per shop in any case. */
  @NonBlankText('name', 200)
  name: string;
}

export class CustomerGroupDto {
  id: string;
  name: string;
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export class CustomerGroupMemberDto {
  group_id: string;
  customer_id: string;
  created_at: string;
}

export function mapCustomerGroup(g: CustomerGroup): CustomerGroupDto {
  return { id: g.id, name: g.name, created_at: g.createdAt.toISOString(), updated_at: g.updatedAt ? g.updatedAt.toISOString() : null };
}

export function mapCustomerGroupMember(m: CustomerGroupMember): CustomerGroupMemberDto {
  return { group_id: m.groupId, customer_id: m.customerId, created_at: m.createdAt.toISOString() };
}
