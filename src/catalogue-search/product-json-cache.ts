import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

interface Item {
  tenant: string;
  product: string;
  value: unknown;
  bytes: number;
}

/**
 * Hydrated storefront product JSON (list projection and detail), per product, language, currency and facet-name
 * snapshot; an entry is replaced when its product changes (a `products` delta), never by a tenant-wide flush (a
 * stock change does not touch it: availability and on-hand are overlaid from the index at each response).
 * Bounded by bytes (`CATALOGUE_PRODUCT_CACHE_MB`), least recently used first out.
 */
@Injectable()
export class ProductJsonCache {
  private readonly items = new Map<string, Item>();
  private readonly byProduct = new Map<string, Set<string>>();
  private bytes = 0;
  readonly budget: number;

  constructor(@Optional() config?: AppConfig) {
    this.budget = (config?.CATALOGUE_PRODUCT_CACHE_MB ?? 128) * 1024 * 1024;
  }

  get<T>(key: string): T | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    return item.value as T;
  }

  set(key: string, tenant: string, product: string, value: unknown, bytes: number): void {
    this.delete(key);
    this.items.set(key, { tenant, product, value, bytes });
    this.bytes += bytes;
    const pk = `${tenant}|${product}`;
    let keys = this.byProduct.get(pk);
    if (!keys) this.byProduct.set(pk, (keys = new Set()));
    keys.add(key);
    for (const old of this.items.keys()) {
      if (this.bytes <= this.budget) break;
      this.delete(old);
    }
  }

  dropProducts(tenant: string, ids: string[]): void {
    for (const id of ids) for (const key of [...(this.byProduct.get(`${tenant}|${id}`) ?? [])]) this.delete(key);
  }

  dropTenant(tenant: string): void {
    for (const [key, item] of this.items) if (item.tenant === tenant) this.delete(key);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.items.size, bytes: this.bytes };
  }

  private delete(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    this.items.delete(key);
    this.bytes -= item.bytes;
    const pk = `${item.tenant}|${item.product}`;
    const keys = this.byProduct.get(pk);
    keys?.delete(key);
    if (keys && keys.size === 0) this.byProduct.delete(pk);
  }
}
