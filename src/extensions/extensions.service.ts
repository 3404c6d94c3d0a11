import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/** An extension point: an abstract (or concrete) class whose instances implement it. */
export type ExtensionPoint<T> = abstract new (...args: never[]) => T;

/**
 * Gathers the implementations of an extension point (src/extensions/extension-points.ts) from every module of the
 * app: each provider instance that is an instance of the point's class, in module registration order (built-in
 * modules first, then the extension modules), each instance once. Read at call time, never in a constructor (all
 * providers exist from `onModuleInit` on); the answer is cached per point.
 */
@Injectable()
export class Extensions {
  private readonly cache = new Map<ExtensionPoint<unknown>, unknown[]>();

  constructor(private readonly discovery: DiscoveryService) {}

  all<T>(point: ExtensionPoint<T>): readonly T[] {
    let found = this.cache.get(point) as T[] | undefined;
    if (!found) {
      const seen = new Set<unknown>();
      found = [];
      for (const wrapper of this.discovery.getProviders()) {
        const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : null;
        if (instance instanceof point && !seen.has(instance)) {
          seen.add(instance);
          found.push(instance);
        }
      }
      this.cache.set(point, found);
    }
    return found;
  }

  /** The last registered implementation (an extension module replaces the built-in one), or null. */
  one<T>(point: ExtensionPoint<T>): T | null {
    const all = this.all(point);
    return all.length ? all[all.length - 1] : null;
  }
}
