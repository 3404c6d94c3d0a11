// Free-shipping progress of the cart drawer (issue 37): the shop's shipping methods with their `free_over`
// (`GET /shipping_methods`, read once per language by src/api/shipping.ts), against the cart's total. The API compares a checkout's subtotal
// after discounts with `free_over` of the shop's default currency converted by the checkout currency's rate, which
// the storefront API does not publish: so the drawer shows the progress only while the cart is in the default currency.
import type { Schemas } from './api/client';

export type ShippingMethod = Schemas['StorefrontShippingMethodDto'];

export interface FreeShipping {
  /** The method whose threshold is the nearest. */
  name: string;
  /** In cents, for `<progress>`: the cart's total against the threshold. */
  value: number;
  max: number;
  /** What is missing (0: reached), in currency units. */
  missing: number;
}

/**
 * The nearest free-shipping threshold: of the methods with a `free_over`, the lowest (a method serving only some
 * countries counts too: the cart has no address yet). Null when no method has one. Cents throughout.
 */
export function freeShippingProgress(total: number, methods: readonly Pick<ShippingMethod, 'name' | 'free_over'>[]): FreeShipping | null {
  let best: { name: string; cents: number } | null = null;
  for (const m of methods) {
    if (m.free_over === null || m.free_over <= 0) continue;
    const cents = Math.round(m.free_over * 100);
    if (!best || cents < best.cents) best = { name: m.name, cents };
  }
  if (!best) return null;
  const value = Math.min(Math.round(total * 100), best.cents);
  return { name: best.name, value, max: best.cents, missing: (best.cents - value) / 100 };
}
