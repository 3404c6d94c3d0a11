import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CurrencyInfo, RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { Currency } from './entities/currency.entity.js';
import { DEFAULT_SETTINGS, Tenant, TenantSettings } from './entities/tenant.entity.js';

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

export type TenantCreatedHook = (ctx: RequestContext, tenant: Tenant) => Promise<void>;

const CACHE_MS = 5_000;

/** Shops, their settings, languages and currencies; the per-tenant configuration every request needs. */
@Injectable()
export class TenancyService {
  private readonly cache = new Map<string, { at: number; config: Promise<TenantConfig> }>();
  private readonly createdHooks: TenantCreatedHook[] = [];
  private soleTenant: { at: number; id: string | null } | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /** Other modules add what a new shop needs (its default theme, say) inside the creating transaction. */
  onTenantCreated(hook: TenantCreatedHook): void {
    this.createdHooks.push(hook);
  }

  async createTenant(input: { name: string; handle?: string; domain?: string; currency?: string }): Promise<Tenant> {
    const handle = slugify(input.handle ?? input.name);
    if (!handle) throw AppError.unprocessable('handle must contain letters or digits');
    return this.dataSource.transaction(async (manager) => {
      const taken = await manager.query(`SELECT 1 FROM tenants WHERE lower(handle) = lower($1)`, [handle]);
      if (taken.length > 0) throw AppError.unprocessable(`a shop with handle "${handle}" already exists`);
      const tenant = await manager.save(manager.create(Tenant, { handle, name: input.name, domain: input.domain?.toLowerCase() ?? null, settings: { ...DEFAULT_SETTINGS } }));
      const code = (input.currency ?? 'CHF').toUpperCase();
      await manager.save(manager.create(Currency, { tenantId: tenant.id, key: code, code, name: code, symbol: code, rate: '1', precision: 2, published: true, isDefault: true }));
      const ctx = RequestContext.forTenant(tenant.id).withManager(manager);
      for (const hook of this.createdHooks) await hook(ctx, tenant);
      this.soleTenant = null;
      return tenant;
    });
  }

  async findByHandle(handle: string): Promise<Tenant | null> {
    return this.dataSource.getRepository(Tenant).createQueryBuilder('t').where('lower(t.handle) = lower(:handle)', { handle }).getOne();
  }

  async findById(id: string): Promise<Tenant | null> {
    if (!isUuid(id)) return null;
    return this.dataSource.getRepository(Tenant).findOne({ where: { id } });
  }

  /** The tenant serving a storefront request without a token: by Host, else the only shop there is. */
  async tenantForHost(host: string | undefined): Promise<string | null> {
    const name = host?.split(':')[0]?.toLowerCase();
    if (name) {
      const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM tenants WHERE lower(domain) = $1`, [name]);
      if (rows.length === 1) return rows[0].id;
    }
    if (!this.soleTenant || Date.now() - this.soleTenant.at > CACHE_MS) {
      const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM tenants LIMIT 2`);
      this.soleTenant = { at: Date.now(), id: rows.length === 1 ? rows[0].id : null };
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

  /** Drops the cached configuration after a change (settings, currencies). */
  invalidate(tenantId: string): void {
    this.cache.delete(tenantId);
  }

  async publishedCurrencies(ctx: RequestContext): Promise<Currency[]> {
    return this.dataSource.getRepository(Currency).find({ where: { tenantId: ctx.tenantId, published: true }, order: { isDefault: 'DESC', code: 'ASC' } });
  }

  async updateSettings(manager: EntityManager, tenantId: string, patch: Partial<TenantSettings>): Promise<void> {
    const tenant = await manager.findOneOrFail(Tenant, { where: { id: tenantId } });
    tenant.settings = { ...tenant.settings, ...patch };
    await manager.save(tenant);
    this.invalidate(tenantId);
  }

  private async loadConfig(tenantId: string): Promise<TenantConfig> {
    const tenant = await this.dataSource.getRepository(Tenant).findOne({ where: { id: tenantId } });
    if (!tenant) throw AppError.unauthorized('the shop could not be identified');
    const rows = await this.dataSource.getRepository(Currency).find({ where: { tenantId }, order: { code: 'ASC' } });
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
