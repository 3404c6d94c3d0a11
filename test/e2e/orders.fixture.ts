/** Placing orders for the order-lifecycle tests (issue 17): invoice (pending) or card (test provider, paid by POST). */
import type { ShopClient, TestApp, TestShop } from '../helpers/test-app.js';
import { waitFor as poll } from '../helpers/wait.js';
import { CH_ADDRESS, checkoutWith, Ids } from './checkout.fixture.js';

export interface Placed {
  order_id: string;
  order_number: string;
  hash: string;
  payment_url: string | null;
}

export async function placeOrder(
  t: TestApp,
  shop: TestShop,
  ids: Ids,
  lines: Array<[string, number]>,
  opts: { pay?: 'invoice' | 'card'; paid?: boolean; code?: string; client?: ShopClient; email?: string } = {},
): Promise<Placed> {
  const client = opts.client ?? t.client(shop.storefront_token);
  const c = await checkoutWith(client, lines, { code: opts.code });
  await client
    .put(`/checkouts/${c.id}`, { shipping_address: { ...CH_ADDRESS, email: opts.email ?? CH_ADDRESS.email }, shipping_method_id: ids.shipping_methods.post })
    .expect(200);
  const card = opts.pay === 'card' || opts.paid === true;
  const body = card
    ? { payment_type_id: ids.payment_types.card, accepted_terms: true, age_confirmed: true, return_url: 'https://shop.example/back' }
    : { payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true };
  const res = await client.post(`/checkouts/${c.id}/complete`, body);
  if (res.status !== 200) throw new Error(`complete failed: ${res.status} ${JSON.stringify(res.body)}`);
  const placed = res.body.checkout as Placed;
  if (opts.paid) await pay(t, placed);
  return placed;
}

/** The buyer confirms on the test payment page (POST, as issue 13 requires). */
export async function pay(t: TestApp, p: Placed) {
  return t.http().post(`/storefront/payments/test/${p.order_id}/pay?hash=${encodeURIComponent(p.hash)}`);
}

export async function abandon(t: TestApp, p: Placed) {
  return t.http().post(`/storefront/payments/test/${p.order_id}/cancel?hash=${encodeURIComponent(p.hash)}`);
}

/** On-hand per location of a variant, from the admin API. */
export async function levels(shop: TestShop, variantId: string): Promise<Record<string, number>> {
  const res = await shop.admin.get(`/admin/inventory_levels?inventory_item_ids=${variantId}`).expect(200);
  return Object.fromEntries((res.body.inventory_levels as Array<{ location_id: string; available: number }>).map((l) => [l.location_id, l.available]));
}

/** Sum of on-hand over the locations of `levels()`. */
export const total = (l: Record<string, number>) => Object.values(l).reduce((a, b) => a + b, 0);

/** `waitFor` with the patience of order jobs: up to 15 s, probing every 50 ms. */
export function waitFor<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  return poll(probe, ok, ms, 50);
}
