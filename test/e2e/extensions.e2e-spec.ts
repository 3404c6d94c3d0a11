import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { PaymentProviders } from '../../src/checkout/payments/payment-provider.js';
import { PriceAdjustments } from '../../src/extensions/price-adjustments.service.js';
import {
  adminResource,
  CatalogueSearch,
  DOMAIN_EVENT_PAYLOADS,
  EVENT_TOPICS,
  Extensions,
  PaymentProvider,
  PriceAdjuster,
  RequestContext,
  TenantCreatedHook,
} from '../../src/index.js';
import type {
  CatalogueSearchRequest,
  CatalogueSearchResult,
  PaymentInitiation,
  PaymentOperationResult,
  PriceAdjustmentRequest,
  PriceOverride,
} from '../../src/index.js';
import { API, createTestApp, TestApp, TestShop } from '../helpers/testing.js';

/** A real provider for `redirect` payment types, registered after the built-in test provider. */
@Injectable()
class AcmePayments extends PaymentProvider {
  readonly name = 'acme';
  readonly kinds = ['redirect'];
  readonly redirects = true;
  async initiate(): Promise<PaymentInitiation> {
    return { paymentUrl: 'https://pay.acme.example/session', reference: 'acme_1' };
  }
  async capture(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
  async refund(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
  async void(): Promise<PaymentOperationResult> {
    return { status: 'succeeded', reference: null };
  }
}

/** Records every new shop inside its creating transaction, and refuses a shop named "Refused". */
@Injectable()
class ShopWelcome extends TenantCreatedHook {
  async onTenantCreated(ctx: RequestContext, tenant: { id: string; handle: string; name: string }): Promise<void> {
    if (tenant.name === 'Refused') throw new Error('refused by the extension');
    await ctx.manager!.query(`UPDATE tenants SET name = name || ' (welcomed)' WHERE id = $1`, [tenant.id]);
  }
}

/** A price adjuster the test switches between behaving and misbehaving. */
@Injectable()
class SwitchableAdjuster extends PriceAdjuster {
  mode: 'keep' | 'short' | 'negative' = 'keep';
  async adjust(_ctx: RequestContext, request: PriceAdjustmentRequest): Promise<Array<PriceOverride | null>> {
    if (this.mode === 'short') return [];
    if (this.mode === 'negative') return request.lines.map(() => ({ gross: '-1', net: '0' }));
    return request.lines.map(() => null);
  }
}

/**
 * A catalogue engine of an extension (as an adapter to an external search engine would be): it counts the questions
 * and, for the test, hides every product whose title has "Hidden", asking the built-in engine for the rest.
 */
@Injectable()
class CountingSearch extends CatalogueSearch {
  questions = 0;
  constructor(private readonly extensions: Extensions) {
    super();
  }
  private get builtIn(): CatalogueSearch {
    return this.extensions.all(CatalogueSearch)[0];
  }
  async search(ctx: RequestContext, request: CatalogueSearchRequest): Promise<CatalogueSearchResult> {
    this.questions += 1;
    return this.builtIn.search(ctx, request);
  }
  visible(ctx: RequestContext, productIds: string[]) {
    return this.builtIn.visible(ctx, productIds);
  }
  stock(ctx: RequestContext, variantIds: string[]) {
    return this.builtIn.stock(ctx, variantIds);
  }
  changeLsn(tenantId: string, productIds: string[]) {
    return this.builtIn.changeLsn(tenantId, productIds);
  }
  stats() {
    return this.builtIn.stats();
  }
}

@Module({ providers: [AcmePayments, ShopWelcome, SwitchableAdjuster, CountingSearch, adminResource('acme')] })
class AcmeExtensionModule {}

/** Extension points (src/extensions/extension-points.ts) and the published event list. */
describe('extension points', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await createTestApp({ imports: [AcmeExtensionModule], config: { PAYMENT_TEST_PROVIDER: true } });
    shop = await t.createShop({ name: 'Cave' });
  });
  afterAll(() => t.close());

  it('gathers every implementation of a point from every module, built-in first', () => {
    expect(
      t
        .get(Extensions)
        .all(PaymentProvider)
        .map((p) => p.name),
    ).toEqual(['offline', 'test', 'acme']);
  });

  it('a catalogue engine of an extension replaces the built-in one: the storefront lists ask it', async () => {
    const engines = t.get(Extensions).all(CatalogueSearch);
    // the built-in engine first (Nest discovers the engine's nested module after the extension's), the extension's last
    expect(engines.map((e) => e.constructor.name)).toEqual(['CatalogueIndexService', 'CountingSearch']);
    const mine = t.get(CountingSearch);
    expect(t.get(Extensions).one(CatalogueSearch) === mine).toBe(true);
    const before = mine.questions;
    await shop.storefront.get('/products?limit=5').expect(200);
    await shop.storefront.get('/products/facets').expect(200);
    expect(mine.questions).toBeGreaterThanOrEqual(before + 2);
  });

  it('a payment provider of an extension replaces the built-in one of its kind; others stay', () => {
    const providers = t.get(PaymentProviders);
    expect(providers.forKind('redirect')?.name).toBe('acme');
    expect(providers.forKind('INVOICE')?.name).toBe('offline');
    expect(providers.named('test')?.name).toBe('test');
    expect(providers.forKind('crypto')).toBeNull();
  });

  it('tenant-created hooks run in the creating transaction: their writes commit with the shop, their failure rolls it back', async () => {
    expect((await t.db.query(`SELECT name FROM tenants WHERE id = $1`, [shop.tenant.id]))[0].name).toBe('Cave (welcomed)');
    await expect(t.createShop({ name: 'Refused', handle: 'refused' })).rejects.toThrow('refused by the extension');
    expect(await t.db.query(`SELECT 1 FROM tenants WHERE handle = 'refused'`)).toHaveLength(0);
  });

  it('an admin resource makes its scopes valid and gives them to new shop owners', async () => {
    const res = await shop.admin.post('/admin/access_tokens', { label: 'acme', tier: 'admin', scopes: ['Shop/acme/read', 'Shop/acme/write'] }).expect(201);
    expect(res.body.access_token.scopes).toBe('Shop/acme/read Shop/acme/write');
    await shop.admin.post('/admin/access_tokens', { label: 'nope', tier: 'admin', scopes: ['Shop/nope/read'] }).expect(422);
    expect(() => adminResource('Not-Valid')).toThrow(/lower-case/);
  });

  it('a price adjuster answering the wrong number of lines or an invalid price is refused, never applied', async () => {
    const adjuster = t.get(SwitchableAdjuster);
    const prices = t.get(PriceAdjustments);
    const ctx = RequestContext.forTenant(shop.tenant.id);
    const lines = [{ variantId: 'v', productId: 'p', quantity: '1', gross: '10.00', net: '9.25', taxRate: '8.1' }];
    expect(await prices.apply(ctx, null, lines)).toEqual(lines);
    adjuster.mode = 'short';
    await expect(prices.apply(ctx, null, lines)).rejects.toThrow(/returned 0 entries for 1 lines/);
    adjuster.mode = 'negative';
    await expect(prices.apply(ctx, null, lines)).rejects.toThrow(/invalid price/);
    adjuster.mode = 'keep';
  });

  it('publishes the payload of every domain event topic (DomainEventMap) in the OpenAPI document and README', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body as { 'x-webhook-payloads': Record<string, string> };
    expect(Object.keys(doc['x-webhook-payloads'])).toEqual([...EVENT_TOPICS]);
    expect(doc['x-webhook-payloads']).toEqual(DOMAIN_EVENT_PAYLOADS);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const topic of EVENT_TOPICS) expect(readme).toContain(`| \`${topic}\` | \`${DOMAIN_EVENT_PAYLOADS[topic].replaceAll('|', '\\|')}\` |`);
  });
});
