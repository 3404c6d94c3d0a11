import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomerGroupsService } from '../../src/promotions/index.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { nextPath } from '../helpers/paging.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin customer groups', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let ana: string;
  let ben: string;
  let foreign: string;

  const customer = async (s: TestShop, email: string) => (await s.admin.post('/admin/customers', { email }).expect(201)).body.customer.id as string;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    other = await t.createShop();
    ana = await customer(shop, 'ana@example.test');
    ben = await customer(shop, 'ben@example.test');
    foreign = await customer(other, 'zoe@example.test');
  });
  afterAll(() => t.close());

  it('creates, reads, renames and lists groups; names are unique per shop in any case', async () => {
    const club = (await shop.admin.post('/admin/customer_groups', { name: 'Wine club' }).expect(201)).body.customer_group;
    expect(club).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Wine club', created_at: expect.stringMatching(ISO), updated_at: null });
    expect((await shop.admin.get(`/admin/customer_groups/${club.id}`).expect(200)).body).toEqual({ customer_group: club });
    expect((await shop.admin.post('/admin/customer_groups', { name: 'WINE CLUB' }).expect(422)).body.errors).toMatch(/already exists/);
    expect((await shop.admin.post('/admin/customer_groups', { name: ' ' }).expect(422)).body.errors).toMatch(/name must not be blank/);
    await other.admin.post('/admin/customer_groups', { name: 'Wine club' }).expect(201);
    const trade = (await shop.admin.post('/admin/customer_groups', { name: 'Trade' }).expect(201)).body.customer_group;
    expect((await shop.admin.put(`/admin/customer_groups/${trade.id}`, { name: 'wine club' }).expect(422)).body.errors).toMatch(/already exists/);
    const renamed = (await shop.admin.put(`/admin/customer_groups/${trade.id}`, { name: 'Trade buyers' }).expect(200)).body.customer_group;
    expect(renamed).toEqual({ ...trade, name: 'Trade buyers', updated_at: expect.stringMatching(ISO) });
    const first = await shop.admin.get('/admin/customer_groups?limit=1').expect(200);
    expect(first.body.customer_groups.map((g: { id: string }) => g.id)).toEqual([club.id]);
    const second = await shop.admin.get(nextPath(first)!).expect(200);
    expect(second.body.customer_groups.map((g: { id: string }) => g.id)).toEqual([trade.id]);
    await other.admin.get(`/admin/customer_groups/${club.id}`).expect(404);
  });

  it('assigns customers idempotently, lists and removes them; the condition reads the groups', async () => {
    const g = (await shop.admin.post('/admin/customer_groups', { name: 'Members' }).expect(201)).body.customer_group;
    const added = (await shop.admin.put(`/admin/customer_groups/${g.id}/customers/${ana}`).expect(200)).body.member;
    expect(added).toEqual({ group_id: g.id, customer_id: ana, created_at: expect.stringMatching(ISO) });
    expect((await shop.admin.put(`/admin/customer_groups/${g.id}/customers/${ana}`).expect(200)).body.member).toEqual(added);
    await shop.admin.put(`/admin/customer_groups/${g.id}/customers/${ben}`).expect(200);
    expect(
      (await shop.admin.get(`/admin/customer_groups/${g.id}/customers`).expect(200)).body.members.map((m: { customer_id: string }) => m.customer_id),
    ).toEqual([ana, ben]);
    const groups = t.get(CustomerGroupsService);
    expect(await groups.groupIdsOf(RequestContext.forTenant(shop.tenant.id), ana)).toEqual([g.id]);
    expect(await groups.groupIdsOf(RequestContext.forTenant(other.tenant.id), ana)).toEqual([]);

    await shop.admin.delete(`/admin/customer_groups/${g.id}/customers/${ben}`).expect(204);
    await shop.admin.delete(`/admin/customer_groups/${g.id}/customers/${ben}`).expect(404);
    // another shop's customer, an unknown group, a malformed id
    await shop.admin.put(`/admin/customer_groups/${g.id}/customers/${foreign}`).expect(404);
    await shop.admin.put(`/admin/customer_groups/00000000-0000-4000-8000-000000000000/customers/${ana}`).expect(404);
    await shop.admin.put(`/admin/customer_groups/${g.id}/customers/nope`).expect(422);
    await other.admin.get(`/admin/customer_groups/${g.id}/customers`).expect(404);

    // deleting the group ends its memberships
    await shop.admin.delete(`/admin/customer_groups/${g.id}`).expect(204);
    await shop.admin.delete(`/admin/customer_groups/${g.id}`).expect(404);
    expect(await groups.groupIdsOf(RequestContext.forTenant(shop.tenant.id), ana)).toEqual([]);
  });
});
