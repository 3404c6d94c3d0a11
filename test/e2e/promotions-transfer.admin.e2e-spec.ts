/**
 * Import and export of promotions and customer groups (issue 32, CONTRACT 6's manner): upsert by key in one
 * transaction, 422 naming the first bad member with nothing written, an identical import changing nothing, customers
 * assigned to groups by email, and a round trip into another shop giving the same document.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

const DOC = {
  customer_groups: [
    { key: 'club', name: 'Wine club', customers: ['ana@example.com', 'ben@example.com'] },
    { key: 'trade', name: 'Trade', customers: [] },
  ],
  promotions: [
    {
      key: 'members-2019',
      name: 'Club −15% on 2019',
      conditions: [
        { type: 'customer_group', group_keys: ['club'] },
        { type: 'lines', selector: [{ type: 'facet', facet: 'vintage', values: ['2019'] }] },
      ],
      actions: [{ type: 'percent_off_lines', percent: 15 }],
    },
    {
      key: 'six-for-five',
      name: '6 for 5',
      priority: 2,
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2026-12-24T00:00:00.000Z',
      combines_with: { order: true },
      usage_limit: 100,
      code: 'SIX',
      conditions: [{ type: 'lines', selector: [{ type: 'facet', facet: 'colour', values: ['red'] }] }],
      actions: [{ type: 'n_for_m', n: 6, m: 5, free: 'cheapest' }],
    },
  ],
};

describe('promotions import and export', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let receiver: Server;
  let receiverBase: string;
  const received: Array<{ topic: string; body: any }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ topic: String(req.headers['x-webhook-topic'] ?? ''), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp({ config: { WEBHOOK_POLL_MS: 50 } });
    shop = await t.createShop();
    other = await t.createShop();
    for (const s of [shop, other])
      for (const email of ['ana@example.com', 'ben@example.com', 'cleo@example.com']) await s.admin.post('/admin/customers', { email }).expect(201);
  });
  afterAll(async () => {
    await t.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  const outboxCount = async (s: TestShop) =>
    Number((await t.db.query(`SELECT count(*) FROM outbox_events WHERE tenant_id = $1 AND topic LIKE 'promotion.%'`, [s.tenant.id]))[0].count);

  it('imports groups with their members and promotions naming groups by key; a second identical import changes nothing', async () => {
    const res = await shop.admin.post('/admin/promotions/import', DOC).expect(200);
    expect(res.body.import).toEqual({
      created: { customer_groups: 2, promotions: 2 },
      updated: { customer_groups: 0, promotions: 0 },
      ids: {
        customer_groups: { club: expect.any(String), trade: expect.any(String) },
        promotions: { 'members-2019': expect.any(String), 'six-for-five': expect.any(String) },
      },
    });
    const ids = res.body.import.ids;
    const members = (await shop.admin.get(`/admin/customer_groups/${ids.customer_groups.club}/customers`).expect(200)).body.members;
    expect(members).toHaveLength(2);
    const p = (await shop.admin.get(`/admin/promotions/${ids.promotions['members-2019']}`).expect(200)).body.promotion;
    expect(p.conditions[0]).toEqual({ type: 'customer_group', group_ids: [ids.customer_groups.club] });
    const events = await outboxCount(shop);
    expect(events).toBe(2);

    const again = await shop.admin.post('/admin/promotions/import', DOC).expect(200);
    expect(again.body.import.created).toEqual({ customer_groups: 0, promotions: 0 });
    expect(again.body.import.updated).toEqual({ customer_groups: 0, promotions: 0 });
    expect(again.body.import.ids).toEqual(ids);
    expect(await outboxCount(shop)).toBe(events);
  });

  it('upserts by key: changed members update, a group gets exactly the listed customers', async () => {
    const doc = structuredClone(DOC);
    doc.customer_groups[0].customers = ['cleo@example.com'];
    (doc.promotions[1] as Record<string, unknown>).priority = 5;
    const res = await shop.admin.post('/admin/promotions/import', doc).expect(200);
    expect(res.body.import.created).toEqual({ customer_groups: 0, promotions: 0 });
    expect(res.body.import.updated).toEqual({ customer_groups: 1, promotions: 1 });
    const exported = (await shop.admin.get('/admin/promotions/export').expect(200)).body.document;
    expect(exported.customer_groups.find((g: { key: string }) => g.key === 'club').customers).toEqual(['cleo@example.com']);
    expect(exported.promotions.find((p: { key: string }) => p.key === 'six-for-five').priority).toBe(5);
  });

  it('exports a document that imports into another shop as the same document (round trip)', async () => {
    const exported = (await shop.admin.get('/admin/promotions/export').expect(200)).body.document;
    expect(exported.promotions.map((p: { key: string }) => p.key)).toEqual(['members-2019', 'six-for-five']);
    expect(exported.promotions[0].conditions[0]).toEqual({ type: 'customer_group', group_keys: ['club'] });
    expect(exported.promotions[1]).toEqual({
      ...DOC.promotions[1],
      priority: 5,
      enabled: true,
      combines_with: { product: false, order: true, shipping: false, discount_codes: false },
      usage_limit_per_customer: null,
    });
    await other.admin.post('/admin/promotions/import', exported).expect(200);
    expect((await other.admin.get('/admin/promotions/export').expect(200)).body.document).toEqual(exported);
    // and back into the first shop: nothing to do
    const back = await shop.admin.post('/admin/promotions/import', exported).expect(200);
    expect(back.body.import.updated).toEqual({ customer_groups: 0, promotions: 0 });
  });

  it('rejects bad input with 422 naming the member and writes nothing', async () => {
    const before = (await shop.admin.get('/admin/promotions/export').expect(200)).body.document;
    const cases: Array<[unknown, RegExp]> = [
      [{ promotions: 'x' }, /promotions must be a list/],
      [{ promotions: [{ name: 'no key', actions: [{ type: 'percent_off_lines', percent: 5 }] }] }, /promotions\[0\]\.key/],
      [{ promotions: [{ key: 'k', name: 'bad', actions: [{ type: 'percent_off_lines', percent: 500 }] }] }, /promotions\[0\]\.actions\[0\]\.percent/],
      [
        {
          promotions: [
            { key: 'k', name: 'x', conditions: [{ type: 'customer_group', group_keys: ['nope'] }], actions: [{ type: 'percent_off_lines', percent: 5 }] },
          ],
        },
        /promotions\[0\]\.conditions\[0\]\.group_keys\[0\]/,
      ],
      [{ customer_groups: [{ key: 'g', name: 'G', customers: ['nobody@example.com'] }] }, /customer_groups\[0\]\.customers\[0\]/],
      [
        {
          customer_groups: [
            { key: 'g', name: 'G' },
            { key: 'g', name: 'H' },
          ],
        },
        /customer_groups\[1\]\.key/,
      ],
      // the first promotion is fine, the second is bad: the first is not written either
      [
        {
          promotions: [
            { key: 'fine', name: 'fine', actions: [{ type: 'percent_off_lines', percent: 5 }] },
            { key: 'bad', name: 'x', actions: [] },
          ],
        },
        /promotions\[1\]\.actions/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await shop.admin.post('/admin/promotions/import', body as object).expect(422);
      expect(res.body.errors).toMatch(message);
    }
    expect((await shop.admin.get('/admin/promotions/export').expect(200)).body.document).toEqual(before);
  });

  it('promotions created, updated and deleted reach webhook subscribers (promotion.created|updated|deleted)', async () => {
    for (const topic of ['promotion.created', 'promotion.updated', 'promotion.deleted'])
      await shop.admin.post('/admin/webhooks', { topic, address: `${receiverBase}/${topic}` }).expect(201);
    const p = (await shop.admin.post('/admin/promotions', { name: 'Hooked', conditions: [], actions: [{ type: 'percent_off_order', percent: 5 }] }).expect(201))
      .body.promotion;
    await shop.admin.put(`/admin/promotions/${p.id}`, { priority: 4 }).expect(200);
    await shop.admin.delete(`/admin/promotions/${p.id}`).expect(204);
    const got = await waitFor(
      () => received.filter((r) => JSON.stringify(r.body).includes(p.id)),
      (list) => list.length >= 3,
      10_000,
    );
    const bodies = got.map((r) => JSON.stringify(r.body));
    expect(bodies.some((b) => b.includes('promotion.created') && b.includes('"Hooked"'))).toBe(true);
    expect(bodies.some((b) => b.includes('promotion.updated') && b.includes('"priority":4'))).toBe(true);
    expect(bodies.some((b) => b.includes('promotion.deleted'))).toBe(true);
  });
});
