import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

describe('HTTP conventions', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
  });
  afterAll(() => t.close());

  const mint = (body: unknown, type: string) =>
    t
      .http()
      .post(`${API}/admin/access_tokens`)
      .set('Authorization', `Bearer ${shop.admin_token}`)
      .set('Content-Type', type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const valid = { label: 'ct', tier: 'admin', scopes: ['Shop/themes/read'] };

  it.each(['application/json', 'application/json; charset=utf-8', 'text/json', 'application/vnd.shop+json'])('accepts a %s body', async (type) => {
    const res = await mint(valid, type).expect(201);
    expect(res.body.access_token.label).toBe('ct');
  });

  it('refuses a body of another content type with 422', async () => {
    const res = await mint(valid, 'text/plain').expect(422);
    expect(res.body).toEqual({ errors: expect.stringContaining('JSON') });
  });

  it('answers malformed JSON with 422 and the envelope', async () => {
    const res = await mint('{"label": "x",', 'application/json').expect(422);
    expect(res.body).toEqual({ errors: 'malformed JSON body' });
  });

  it('answers a JSON array or scalar body with 422', async () => {
    await mint('[1,2]', 'application/json').expect(422);
    await mint('"x"', 'application/json').expect(422);
  });

  it('answers a wrong member type with 422 naming the member', async () => {
    const res = await mint({ label: 'x', tier: 'admin', scopes: [5] }, 'application/json').expect(422);
    expect(res.body.errors).toContain('scopes');
  });

  it('answers a body over 1 MB with 413 and the envelope', async () => {
    const res = await mint({ label: 'x'.repeat(1_100_000), tier: 'admin', scopes: [] }, 'application/json').expect(413);
    expect(res.body).toEqual({ errors: expect.any(String) });
  });

  it('answers an unknown route with the 404 envelope', async () => {
    const res = await t.http().get(`${API}/no/such/thing`).expect(404);
    expect(res.body).toEqual({ errors: 'not found' });
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('answers an unknown version segment with 404', async () => {
    const res = await t.http().get('/api/2019-01-01/admin/access_tokens').set('Authorization', `Bearer ${shop.admin_token}`).expect(404);
    expect(res.body).toEqual({ errors: 'not found' });
  });

  it('answers a known path with an unsupported method with 405 and Allow', async () => {
    const res = await t.http().patch(`${API}/admin/access_tokens`).set('Authorization', `Bearer ${shop.admin_token}`).expect(405);
    expect(res.body).toEqual({ errors: expect.stringContaining('PATCH') });
    expect(res.headers.allow).toContain('GET');
    expect(res.headers.allow).toContain('POST');
  });

  it('echoes X-Request-Id, or generates one', async () => {
    const echoed = await t.http().get('/health').set('X-Request-Id', 'req-12345').expect(200);
    expect(echoed.headers['x-request-id']).toBe('req-12345');
    const generated = await t.http().get('/health').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves liveness and readiness outside the versioned path without auth', async () => {
    expect((await t.http().get('/health').expect(200)).body).toEqual({ status: 'ok' });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.http().get(`${API}/openapi.json`).expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toContain(`${API}/admin/access_tokens`);
    expect(doc.body.components.schemas.CreateAccessTokenDto.properties.label.type).toBe('string');
    const page = await t.http().get('/api/docs').expect(200);
    expect(page.text).toContain('swagger');
  });

  it("makes requests and responses with Express's prototypes, so no request changes an object's prototype", async () => {
    // src/common/http/express-adapter.ts: V8 kept a switched object's allocations past the young generation
    const express = t.app.getHttpAdapter().getInstance() as { request: object; response: object };
    const seen: Array<[object | null, object | null]> = [];
    const watch = (req: object, res: object) => seen.push([Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object]);
    t.server.prependListener('request', watch);
    try {
      await t.http().get('/health').expect(200);
      await t.http().get(`${API}/products`).set('Authorization', `Bearer ${shop.storefront_token}`).expect(200);
    } finally {
      t.server.off('request', watch);
    }
    expect(seen).toHaveLength(2);
    for (const [req, res] of seen) {
      expect(req).toBe(express.request);
      expect(res).toBe(express.response);
    }
  });

  it('wraps success in a one-member envelope', async () => {
    const res = await shop.admin.get('/admin/access_tokens').expect(200);
    expect(Object.keys(res.body)).toEqual(['access_tokens']);
  });
});

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents responses inside their envelope and the security of each tier', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const list = doc.paths[`${API}/admin/access_tokens`].get;
    expect(list.responses['200'].content['application/json'].schema.properties.access_tokens.items.$ref).toBe('#/components/schemas/AccessTokenDto');
    expect(list.security).toEqual(expect.arrayContaining([{ admin: [] }]));
    expect(doc.components.securitySchemes).toEqual(
      expect.objectContaining({ admin: expect.any(Object), storefront: expect.any(Object), customer: expect.any(Object) }),
    );
  });

  it('documents the storefront catalogue and the import with their shapes', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    const schemas = doc.components.schemas;
    const ok = (path: string, method = 'get') => doc.paths[`${API}${path}`][method].responses['200'].content['application/json'].schema;
    expect(ok('/products').$ref).toBe('#/components/schemas/ProductListResponseDto');
    expect(ok('/products/facets').$ref).toBe('#/components/schemas/FacetsResponseDto');
    expect(ok('/products/{id}').properties.product.$ref).toBe('#/components/schemas/ProductDetailDto');
    expect(ok('/admin/collections/{id}/products').$ref).toBe('#/components/schemas/ProductListResponseDto');
    expect(ok('/admin/catalogue/import', 'post').properties.import.properties).toEqual(
      expect.objectContaining({ created: expect.any(Object), updated: expect.any(Object), ids: expect.any(Object) }),
    );
    expect(Object.keys(schemas.ProductListDto.properties)).toEqual(
      expect.arrayContaining(['price_min', 'price_max', 'variants_count', 'manufacturer', 'flag', 'variants']),
    );
    expect(Object.keys(schemas.VariantDto.properties)).toEqual(expect.arrayContaining(['quantity_rule', 'facets', 'factsheet_url', 'compare_at_price']));
    expect(schemas.VariantDto.properties.quantity_rule.allOf?.[0]?.$ref ?? schemas.VariantDto.properties.quantity_rule.$ref).toBe(
      '#/components/schemas/QuantityRuleDto',
    );
  });
});
