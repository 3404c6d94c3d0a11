import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { register, signIn } from './customers.helpers.js';

/*
 * Issue 29: a PUT, POST or PATCH with `Content-Type: application/json` and a zero-byte body is refused (400 or 422,
 * as without a body) on every operation of the OpenAPI document that reads a JSON body, not taken for `{}` (which an
 * update with only optional members would apply as "change nothing", 200).
 */
describe('zero-byte JSON bodies', () => {
  let t: TestApp;
  let shop: TestShop;
  let shopperToken: string;
  let operations: Array<[string, string]>;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    await register(shop.storefront, 'empty-body@example.com');
    shopperToken = (await signIn(t, shop.storefront, 'empty-body@example.com')).token;
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    operations = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of ['put', 'post', 'patch'])
        if (item[method]?.requestBody?.content?.['application/json'] !== undefined) operations.push([method, path]);
  });
  afterAll(() => t.close());

  /** The token of the operation's tier. */
  const tokenFor = (path: string) => {
    const p = path.replace(API, '');
    if (p.startsWith('/admin/')) return shop.admin_token;
    if (p.startsWith('/customers/me') || p.startsWith('/customer/')) return shopperToken;
    return shop.storefront_token;
  };

  it('every operation reading a JSON body answers 400 or 422 with the error envelope', async () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations).toContainEqual(['put', `${API}/admin/themes/{id}`]);
    const wrong: string[] = [];
    for (const [method, path] of operations) {
      const url = path.replace(/\{[^}]+\}/g, () => randomUUID());
      const req = method === 'put' ? t.http().put(url) : method === 'post' ? t.http().post(url) : t.http().patch(url);
      const res = await req
        .set('Authorization', `Bearer ${tokenFor(path)}`)
        .set('Content-Type', 'application/json')
        .send('');
      const envelope = typeof res.body?.errors === 'string';
      if (![400, 422].includes(res.status) || !envelope) wrong.push(`${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('PUT /admin/themes/{id} with a zero-byte JSON body is 422 and changes nothing', async () => {
    const themes = (await shop.admin.get('/admin/themes').expect(200)).body.themes as Array<{ id: string }>;
    const before = (await shop.admin.get(`/admin/themes/${themes[0].id}`).expect(200)).body.theme;
    const res = await shop.admin.put(`/admin/themes/${themes[0].id}`).set('Content-Type', 'application/json').send('').expect(422);
    expect(res.body).toEqual({ errors: 'a JSON request body is required' });
    expect((await shop.admin.get(`/admin/themes/${themes[0].id}`).expect(200)).body.theme).toEqual(before);
    // an empty chunked body too (no Content-Length, zero bytes)
    const server = t.server as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: `${API}/admin/themes/${themes[0].id}`,
          headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
          agent: false,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(chunked.status).toBe(422);
    expect(JSON.parse(chunked.body)).toEqual({ errors: 'a JSON request body is required' });
    // an explicit empty object is still an update applying nothing
    await shop.admin.put(`/admin/themes/${themes[0].id}`, {}).expect(200);
  });
});
