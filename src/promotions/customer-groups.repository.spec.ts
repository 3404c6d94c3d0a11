import type { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from '../common/context/request-context.js';
import type { Pager } from '../common/paging/pager.service.js';
import { CustomerGroupsRepository } from './promotions.repository.js';

/**
 * The export's member lists: memberships are the promotions module's, the addresses the customers module's (read
 * through `customerEmails`), joined in memory. The database is faked by the statement each query runs.
 */
function repoWith(members: Array<{ group_id: string; customer_id: string }>, emails: Record<string, string>) {
  const calls: Array<[sql: string, params: unknown[]]> = [];
  const query = async (sql: string, params: unknown[]): Promise<unknown[]> => {
    calls.push([sql, params]);
    if (sql.includes('FROM customer_group_members')) return members;
    if (sql.includes('FROM customers')) return (params[1] as string[]).flatMap((id) => (emails[id] ? [{ id, email: emails[id] }] : []));
    throw new Error(`unexpected SQL: ${sql}`);
  };
  const manager = { query } as unknown as EntityManager;
  const repo = new CustomerGroupsRepository({ manager } as unknown as DataSource, {} as Pager);
  return { repo, calls, ctx: RequestContext.forTenant('t1') };
}

describe('CustomerGroupsRepository.memberEmails', () => {
  it('lists each group’s member addresses sorted without case, whatever order the memberships come in', async () => {
    const { repo, ctx } = repoWith(
      [
        { group_id: 'g1', customer_id: 'c3' },
        { group_id: 'g1', customer_id: 'c1' },
        { group_id: 'g2', customer_id: 'c1' },
        { group_id: 'g1', customer_id: 'c2' },
      ],
      { c1: 'cleo@example.com', c2: 'Ben@example.com', c3: 'ana@example.com' },
    );
    expect(await repo.memberEmails(ctx)).toEqual(
      new Map([
        ['g1', ['ana@example.com', 'Ben@example.com', 'cleo@example.com']],
        ['g2', ['cleo@example.com']],
      ]),
    );
  });

  it('asks the customers once for the distinct members of the shop and leaves out members that are no customer', async () => {
    const { repo, calls, ctx } = repoWith(
      [
        { group_id: 'g1', customer_id: 'c1' },
        { group_id: 'g2', customer_id: 'c1' },
        { group_id: 'g2', customer_id: 'gone' },
      ],
      { c1: 'ana@example.com' },
    );
    expect(await repo.memberEmails(ctx)).toEqual(
      new Map([
        ['g1', ['ana@example.com']],
        ['g2', ['ana@example.com']],
      ]),
    );
    const customerReads = calls.filter(([sql]) => sql.includes('FROM customers'));
    expect(customerReads.map(([, params]) => params)).toEqual([['t1', ['c1', 'gone']]]);
  });

  it('reads no customers for a shop without members', async () => {
    const { repo, calls, ctx } = repoWith([], {});
    expect(await repo.memberEmails(ctx)).toEqual(new Map());
    expect(calls).toHaveLength(1);
  });
});
