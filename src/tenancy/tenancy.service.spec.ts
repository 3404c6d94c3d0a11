import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { rejectedStatus } from '../../test/helpers/app-error.js';
import type { EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { Extensions, TenantCreatedHook } from '../extensions/index.js';
import { Currency } from './entities/currency.entity.js';
import { DEFAULT_SETTINGS, Tenant, type TenantSettings } from './entities/tenant.entity.js';
import { TenancyRepository, type NewShop } from './tenancy.repository.js';
import { TenancyService } from './tenancy.service.js';

/** Shops and currencies in memory, as the repository's contract describes them (handles unique without case). */
class FakeTenancyRepository {
  shops: Tenant[] = [];
  currencyRows: Currency[] = [];
  /** Statements run, by method name (to see what a refusal did not do, and what a cache saved). */
  calls: string[] = [];
  private seq = 0;

  transaction<R>(work: (m: EntityManager) => Promise<R>): Promise<R> {
    this.calls.push('transaction');
    return work({} as EntityManager);
  }
  handleTaken(_m: EntityManager, handle: string): Promise<boolean> {
    this.calls.push('handleTaken');
    return Promise.resolve(this.shops.some((t) => t.handle.toLowerCase() === handle.toLowerCase()));
  }
  insertShop(_m: EntityManager, shop: NewShop): Promise<Tenant> {
    this.calls.push('insertShop');
    const tenant = this.addShop(shop.handle, shop.domain, {}, shop.name);
    this.addCurrency(tenant.id, shop.currencyCode, true);
    return Promise.resolve(tenant);
  }
  findByHandle(handle: string): Promise<Tenant | null> {
    return Promise.resolve(this.shops.find((t) => t.handle.toLowerCase() === handle.toLowerCase()) ?? null);
  }
  findById(id: string): Promise<Tenant | null> {
    this.calls.push('findById');
    return Promise.resolve(this.shops.find((t) => t.id === id) ?? null);
  }
  idsByDomain(domain: string): Promise<string[]> {
    this.calls.push('idsByDomain');
    return Promise.resolve(this.shops.filter((t) => t.domain === domain).map((t) => t.id));
  }
  someIds(limit: number): Promise<string[]> {
    this.calls.push('someIds');
    return Promise.resolve(this.shops.slice(0, limit).map((t) => t.id));
  }
  publishedCurrencies(tenantId: string): Promise<Currency[]> {
    return Promise.resolve(this.currencyRows.filter((c) => c.tenantId === tenantId && c.published));
  }
  currencies(tenantId: string): Promise<Currency[]> {
    this.calls.push('currencies');
    return Promise.resolve(this.currencyRows.filter((c) => c.tenantId === tenantId).sort((a, b) => a.code.localeCompare(b.code)));
  }
  mergeSettings(_m: EntityManager, tenantId: string, patch: Partial<TenantSettings>): Promise<void> {
    const t = this.shops.find((s) => s.id === tenantId)!;
    t.settings = { ...t.settings, ...patch };
    return Promise.resolve();
  }

  addShop(handle: string, domain: string | null, settings: Partial<TenantSettings>, name = handle): Tenant {
    const id = `00000000-0000-0000-0000-${String(++this.seq).padStart(12, '0')}`;
    const t = Object.assign(new Tenant(), { id, handle, name, domain, settings });
    this.shops.push(t);
    return t;
  }
  addCurrency(tenantId: string, code: string, isDefault: boolean): void {
    this.currencyRows.push(
      Object.assign(new Currency(), { id: `cur-${code}-${tenantId}`, tenantId, key: code, code, rate: '1', precision: 2, published: true, isDefault }),
    );
  }
}

/** A hook that records the shops it was told about, and the tenant of the context it got. */
class RecordingHook extends TenantCreatedHook {
  seen: Array<{ ctxTenant: string; tenant: { id: string; handle: string; name: string } }> = [];
  onTenantCreated(ctx: RequestContext, tenant: { id: string; handle: string; name: string }): Promise<void> {
    this.seen.push({ ctxTenant: ctx.tenantId, tenant });
    return Promise.resolve();
  }
}

async function setUp(hooks: TenantCreatedHook[] = []) {
  const repo = new FakeTenancyRepository();
  const extensions = { all: () => hooks };
  const moduleRef = await Test.createTestingModule({
    providers: [TenancyService, { provide: TenancyRepository, useValue: repo }, { provide: Extensions, useValue: extensions }],
  }).compile();
  return { service: moduleRef.get(TenancyService), repo };
}

describe('TenancyService (repository faked)', () => {
  it('creates a shop with a handle made from its name, a lower-case domain and an upper-case currency (CHF by default), and runs every TenantCreatedHook for it', async () => {
    const hook = new RecordingHook();
    const { service, repo } = await setUp([hook]);
    const tenant = await service.createTenant({ name: 'Château Mérite & Co', domain: 'Shop.Example' });
    expect(tenant).toMatchObject({ handle: 'chateau-merite-co', domain: 'shop.example' });
    expect(repo.currencyRows.map((c) => [c.tenantId, c.code, c.isDefault])).toEqual([[tenant.id, 'CHF', true]]);
    expect(hook.seen).toEqual([{ ctxTenant: tenant.id, tenant: { id: tenant.id, handle: 'chateau-merite-co', name: 'Château Mérite & Co' } }]);
    const second = await service.createTenant({ name: 'Other', handle: 'other', currency: 'eur' });
    expect(repo.currencyRows.filter((c) => c.tenantId === second.id).map((c) => c.code)).toEqual(['EUR']);
  });

  it('refuses a handle another shop has (without case) with 422 before writing, and a name without letters or digits before any statement', async () => {
    const { service, repo } = await setUp();
    repo.addShop('cave', null, {});
    expect(await rejectedStatus(service.createTenant({ name: 'x', handle: 'CAVE' }))).toBe(422);
    expect(repo.calls).toEqual(['transaction', 'handleTaken']);
    repo.calls = [];
    expect(await rejectedStatus(service.createTenant({ name: '***' }))).toBe(422);
    expect(repo.calls).toEqual([]);
    expect(repo.shops).toHaveLength(1);
  });

  it('serves a host by its domain (port and case ignored), else the only shop there is, else nobody', async () => {
    const { service, repo } = await setUp();
    const a = repo.addShop('a', 'a.example', {});
    expect(await service.tenantForHost('A.Example:8080')).toBe(a.id);
    expect(await service.tenantForHost('unknown.example')).toBe(a.id); // the sole shop
    expect(await service.tenantForHost(undefined)).toBe(a.id);
    await service.createTenant({ name: 'b' }); // a new shop forgets the sole shop
    expect(await service.tenantForHost('unknown.example')).toBeNull();
    expect(await service.tenantForHost('a.example')).toBe(a.id);
  });

  it('remembers the sole shop between requests (one look-up) until a shop changes', async () => {
    const { service, repo } = await setUp();
    repo.addShop('a', null, {});
    await service.tenantForHost(undefined);
    await service.tenantForHost(undefined);
    expect(repo.calls.filter((c) => c === 'someIds')).toHaveLength(1);
    service.invalidate(repo.shops[0].id);
    await service.tenantForHost(undefined);
    expect(repo.calls.filter((c) => c === 'someIds')).toHaveLength(2);
  });

  it("gives a shop's configuration with the default settings under its own and its default currency, cached until invalidated; an unknown shop is 401", async () => {
    const { service, repo } = await setUp();
    const t = repo.addShop('cave', null, { require_email_confirmation: true });
    repo.addCurrency(t.id, 'EUR', false);
    repo.addCurrency(t.id, 'CHF', true);
    const config = await service.config(t.id);
    expect(config.settings).toEqual({ ...DEFAULT_SETTINGS, require_email_confirmation: true });
    expect(config.defaultCurrency.code).toBe('CHF');
    expect(config.currencies.map((c) => c.code)).toEqual(['CHF', 'EUR']);
    await service.config(t.id);
    expect(repo.calls.filter((c) => c === 'findById')).toHaveLength(1);
    await service.updateSettings({} as EntityManager, t.id, { require_email_confirmation: false });
    expect((await service.config(t.id)).settings).toEqual({ ...DEFAULT_SETTINGS, require_email_confirmation: false });
    expect(repo.calls.filter((c) => c === 'findById')).toHaveLength(2);
    expect(await rejectedStatus(service.config('00000000-0000-0000-0000-00000000ffff'))).toBe(401);
  });

  it('takes the first currency by code as the default when none is marked', async () => {
    const { service, repo } = await setUp();
    const t = repo.addShop('cave', null, {});
    repo.addCurrency(t.id, 'USD', false);
    repo.addCurrency(t.id, 'EUR', false);
    expect((await service.config(t.id)).defaultCurrency.code).toBe('EUR');
  });
});
