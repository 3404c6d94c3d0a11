import { Inject, Injectable, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/** An extension point: an abstract (or concrete) class whose instances implement it. */
export type ExtensionPoint<T> = abstract new (...args: never[]) => T;

/** The extension modules of the app (their classes): their implementations are ordered after the built-in ones. */
export const EXTENSION_MODULES = Symbol('EXTENSION_MODULES');

/**
 * Gathers the implementations of an extension point (src/extensions/extension-points.ts) from every module of the
 * app: each provider instance that is an instance of the point's class, built-in modules first, then the extension
 * modules (`EXTENSION_MODULES`; Nest's discovery order alone puts a nested dynamic module such as the catalogue
 * engine's after them), in discovery order within each, each instance once. Read at call time, never in a constructor (all
 * providers exist from `onModuleInit` on); the answer is cached per point.
 */
@Injectable()
export class Extensions {
  private readonly cache = new Map<ExtensionPoint<unknown>, unknown[]>();

  constructor(
    private readonly discovery: DiscoveryService,
    @Optional() @Inject(EXTENSION_MODULES) private readonly extensionModules?: ReadonlySet<unknown>,
  ) {}

  all<T>(point: ExtensionPoint<T>): readonly T[] {
    let found = this.cache.get(point) as T[] | undefined;
    if (!found) {
      const seen = new Set<unknown>();
      const builtIn: T[] = [];
      const extension: T[] = [];
      for (const wrapper of this.discovery.getProviders()) {
        const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : null;
        if (instance instanceof point && !seen.has(instance)) {
          seen.add(instance);
          (this.extensionModules?.has(wrapper.host?.metatype) ? extension : builtIn).push(instance);
        }
      }
      found = [...builtIn, ...extension];
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
