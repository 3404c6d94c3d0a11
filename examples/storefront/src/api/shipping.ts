// The shop's shipping methods with their free-shipping thresholds (`GET /shipping_methods`, issue 37).
import { api } from './client';
import type { ShippingMethod } from '../free-shipping';

const cache = new Map<string, Promise<ShippingMethod[]>>();

/** The shop's methods in a language (every page, following the Link header), asked once per language. */
export function shippingMethods(locale: string): Promise<ShippingMethod[]> {
  let methods = cache.get(locale);
  if (!methods) {
    methods = (async () => {
      const out: ShippingMethod[] = [];
      let query: Record<string, string> = { limit: '250' };
      for (;;) {
        const { data, response } = await api.GET('/api/2026-04-01/shipping_methods', { params: { query } });
        if (!data) return out;
        out.push(...data.shipping_methods);
        const next = response.headers.get('Link')?.match(/<([^>]+)>\s*;\s*rel="next"/);
        if (!next) return out;
        query = Object.fromEntries(new URL(next[1], location.href).searchParams);
      }
    })().catch(() => []);
    cache.set(locale, methods);
  }
  return methods;
}
