import { Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { TenantCreatedHook } from '../extensions/index.js';
import { Extensions } from '../extensions/index.js';
import { Currency } from './entities/currency.entity.js';
import { DEFAULT_SETTINGS, Tenant, TenantSettings } from './entities/tenant.entity.js';
import { TenancyRepository } from './tenancy.repository.js';

export interface TenantConfig {
  id: string;
  handle: string;
  name: string;
  settings: TenantSettings;
  /** Every currency of the shop, published or not. */
  currencies: CurrencyInfoWithState[];
  defaultCurrency: CurrencyInfo;
}

export interface CurrencyInfoWithState extends CurrencyInfo {
  published: boolean;
}

const CACHE_MS = 5_000;
/** Cache-bus topic: a shop's settings, languages or currencies changed (or a shop was created). */
export const TENANCY_CACHE_TOPIC = 'tenancy';

/** Shops, their settings, languages and currencies; the per-tenant configuration every request needs. */
@Injectable()
export class TenancyService {
  private readonly cache = new Map<string, { at: number; config: Promise<TenantConfig> }>();
  private soleTenant: { at: number; id: string | null } | null = null;

  constructor(
    private readonly repo: TenancyRepository,
    private readonly extensions: Extensions,
    @Optional() private readonly bus?: CacheBus,
  ) {
    // every instance drops its copy when any instance changes a shop (issue 10)
    bus?.subscribe(TENANCY_CACHE_TOPIC, (tenantId) => this.drop(tenantId));
  }

  /** Creates a shop; every `TenantCreatedHook` extension provider adds what a new shop needs (its default theme, say) in the same transaction. */
  async createTenant(input: { name: string; handle?: string; domain?: string; currency?: string }): Promise<Tenant> {
    const handle = slugify(input.handle ?? input.name);
    if (!handle) throw AppError.unprocessable('handle must contain letters or digits');
    return this.repo.transaction(async (manager) => {
      if (await this.repo.handleTaken(manager, handle)) throw AppError.unprocessable(`a shop with handle "${handle}" already exists`);
      const tenant = await this.repo.insertShop(manager, {
        handle,
        name: input.name,
        domain: input.domain?.toLowerCase() ?? null,
        currencyCode: (input.currency ?? 'CHF').toUpperCase(),
      });
      const ctx = RequestContext.forTenant(tenant.id).withManager(manager);
      for (const hook of this.extensions.all(TenantCreatedHook)) await hook.onTenantCreated(ctx, { id: tenant.id, handle: tenant.handle, name: tenant.name });
      this.soleTenant = null;
      await this.bus?.publish(TENANCY_CACHE_TOPIC, tenant.id, manager);
      return tenant;
    });
  }

  async findByHandle(handle: string): Promise<Tenant | null> {
    return this.repo.findByHandle(handle);
  }

  async findById(id: string): Promise<Tenant | null> {
    if (!isUuid(id)) return null;
    return this.repo.findById(id);
  }

  /** The tenant serving a storefront request without a token: by Host, else the only shop there is. */
  async tenantForHost(host: string | undefined): Promise<string | null> {
    const name = host?.split(':')[0]?.toLowerCase();
    if (name) {
      const ids = await this.repo.idsByDomain(name);
      if (ids.length === 1) return ids[0];
    }
    if (!this.soleTenant || Date.now() - this.soleTenant.at > CACHE_MS) {
      const ids = await this.repo.someIds(2);
      this.soleTenant = { at: Date.now(), id: ids.length === 1 ? ids[0] : null };
    }
    return this.soleTenant.id;
  }

  config(tenantId: string): Promise<TenantConfig> {
    const hit = this.cache.get(tenantId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.config;
    const config = this.loadConfig(tenantId);
    this.cache.set(tenantId, { at: Date.now(), config });
    config.catch(() => this.cache.delete(tenantId));
    return config;
  }

  /** Drops the cached configuration after a committed change (settings, currencies), on every instance. */
  invalidate(tenantId: string): void {
    this.drop(tenantId);
    this.bus?.publishSoon(TENANCY_CACHE_TOPIC, tenantId);
  }

  /** This instance's copy only (the cache bus calls it on every instance; null = every shop). */
  private drop(tenantId: string | null): void {
    if (tenantId === null) this.cache.clear();
    else this.cache.delete(tenantId);
    this.soleTenant = null;
  }

  async publishedCurrencies(ctx: RequestContext): Promise<Currency[]> {
    return this.repo.publishedCurrencies(ctx.tenantId);
  }

  async updateSettings(manager: EntityManager, tenantId: string, patch: Partial<TenantSettings>): Promise<void> {
    await this.repo.mergeSettings(manager, tenantId, patch);
    this.drop(tenantId);
    // delivered to the other instances when the caller's transaction commits
    if (this.bus) await this.bus.publish(TENANCY_CACHE_TOPIC, tenantId, manager);
  }

  private async loadConfig(tenantId: string): Promise<TenantConfig> {
    const tenant = await this.repo.findById(tenantId);
    if (!tenant) throw AppError.unauthorized('the shop could not be identified');
    const rows = await this.repo.currencies(tenantId);
    const currencies = rows.map((c) => ({ id: c.id, code: c.code, rate: c.rate, precision: c.precision, isDefault: c.isDefault, published: c.published }));
    const defaultCurrency = currencies.find((c) => c.isDefault) ?? currencies[0];
    if (!defaultCurrency) throw new Error(`tenant ${tenantId} has no currency`);
    return { id: tenant.id, handle: tenant.handle, name: tenant.name, settings: { ...DEFAULT_SETTINGS, ...tenant.settings }, currencies, defaultCurrency };
  }
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
