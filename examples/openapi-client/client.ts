// A storefront client generated from the live OpenAPI document (openapi-typescript + openapi-fetch): it lists red wines
// with their facets, adds the first available variant to the cart and completes a checkout. Every request and response
// type below comes from ./schema.d.ts (regenerate it with `npm run openapi:client`); nothing is hand-written.
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type ProductList = components['schemas']['ProductListResponseDto'];
type Facet = components['schemas']['FacetDto'];

export interface ShopperOrder {
  products: ProductList['products'];
  colours: Facet | undefined;
  orderId: string;
  total: number;
}

export function storefrontClient(baseUrl: string, storefrontToken?: string, fetchImpl?: typeof fetch) {
  return createClient<paths>({ baseUrl, headers: storefrontToken ? { Authorization: `Bearer ${storefrontToken}` } : {}, fetch: fetchImpl });
}

/** Browses, fills the cart and checks out as a guest; throws with the API's error envelope when a step is refused. */
export async function buyTheFirstWine(
  api: ReturnType<typeof storefrontClient>,
  shipTo: { country_code: string; email: string; paymentTypeName: string },
): Promise<ShopperOrder> {
  const list = await api.GET('/api/2026-04-01/products', { params: { query: { include: 'facets', available: 'true', order: 'price asc', limit: 5 } } });
  if (list.error) throw new Error(`products: ${list.error.errors ?? ''}`);
  const colours = list.data.facets?.find((f) => f.key === 'colors');
  const variant = list.data.products.flatMap((p) => p.variants).find((v) => v.available);
  if (!variant) throw new Error('nothing to buy');
  const vintage: string | null = variant.facets.vintage?.name ?? null; // a nullable reference, typed as such
  void vintage;

  const cart = await api.POST('/api/2026-04-01/cart/items', { body: { article_id: variant.id, quantity: 2 } });
  if (cart.error) throw new Error(`cart: ${cart.error.errors ?? ''} ${cart.error.code ?? ''}`);

  const created = await api.POST('/api/2026-04-01/checkouts', { params: { header: { 'Idempotency-Key': `example-${variant.id}` } } });
  if (created.error) throw new Error(`checkout: ${created.error.errors ?? ''}`);
  const token = created.data.checkout.id;

  const address = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    street: 'Main street',
    house_number: '1',
    zip_code: '10115',
    location: 'Berlin',
    email: shipTo.email,
    country_code: shipTo.country_code,
  };
  const priced = await api.PUT('/api/2026-04-01/checkouts/{token}', {
    params: { path: { token } },
    body: { shipping_address: address, billing_same_as_shipping: true },
  });
  if (priced.error) throw new Error(`address: ${priced.error.errors ?? ''}`);
  const shipping = priced.data.checkout.shipping_options[0];
  const payment = priced.data.checkout.payment_types.find((p) => p.name === shipTo.paymentTypeName);
  if (!shipping || !payment) throw new Error('no shipping option or offline payment type');
  const chosen = await api.PUT('/api/2026-04-01/checkouts/{token}', { params: { path: { token } }, body: { shipping_method_id: shipping.id } });
  if (chosen.error) throw new Error(`shipping: ${chosen.error.errors ?? ''}`);

  const done = await api.POST('/api/2026-04-01/checkouts/{token}/complete', {
    params: { path: { token } },
    body: { payment_type_id: payment.id, accepted_terms: true, age_confirmed: true },
  });
  if (done.error) throw new Error(`complete: ${done.error.errors ?? ''} (${done.error.code ?? 'no code'})`);
  const { order_id, hash } = done.data.checkout;
  const receipt = await api.GET('/api/2026-04-01/orders/{id}', { params: { path: { id: order_id }, query: { hash } } });
  if (receipt.error) throw new Error(`receipt: ${receipt.error.errors ?? ''}`);
  return { products: list.data.products, colours, orderId: receipt.data.order.id, total: receipt.data.order.total };
}
