/**
 * The domain events of the service, in one place. Each is emitted inside the transaction that causes it
 * (`DomainEvents.emit(ctx, topic, payload)`), recorded in `outbox_events` and delivered from there to in-process
 * handlers and webhook subscriptions. The payload of each topic holds the resource under its own member, in its
 * admin representation where one exists (ids, decimal money as in the API, ISO timestamps):
 *
 * | topic | payload |
 * |---|---|
 * | `order.placed` | `{order: {id, customer_id, email, total, currency, ...}}` |
 * | `order.paid` | `{order: {id, ...}}` |
 * | `order.shipped` | `{order: {id, tracking_url, ...}}` |
 * | `order.cancelled` | `{order: {id, number, reason, note, cancelled_at, financial_status, refunded_amount, currency, restocked_quantity, discount_code_released}, refund: {id, amount} \| null}` |
 * | `order.refunded` | `{order: {id, number, financial_status, refunded_amount, currency}, refund: {id, created_at, amount, shipping, lines, note}}` |
 * | `order.fulfilled` | `{order: {id, number, email, fulfillment_status}, fulfillment: {id, created_at, lines, tracking_number, tracking_url, carrier}, notify_customer}` |
 * | `checkout.completed` | `{checkout: {token, order_id, ...}}` |
 * | `customer.created` / `customer.updated` | `{customer: <admin customer>}` |
 * | `inventory_level.updated` | `{inventory_level: {inventory_item_id, location_id, available}}` |
 * | `collection.created` / `collection.updated` | `{collection: <admin collection>}` |
 * | `collection.deleted` | `{collection: {id}}` |
 * | `discount_code.redeemed` | `{discount_code: {id, code}, order_id}` |
 * | `theme.published` | `{theme: {id, name, role}}` |
 * | `catalogue.imported` | `{import: {created, updated}}` |
 * | `product.created` / `product.updated` | `{product: <admin product>}` (a variant's change updates its product) |
 * | `product.deleted` | `{product: {id, key, archived}}` (archived: kept, unpublished, for its orders) |
 */
export const EVENT_TOPICS = [
  'order.placed',
  'order.paid',
  'order.shipped',
  'order.cancelled',
  'order.refunded',
  'order.fulfilled',
  'checkout.completed',
  'customer.created',
  'customer.updated',
  'inventory_level.updated',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'discount_code.redeemed',
  'theme.published',
  'catalogue.imported',
  'product.created',
  'product.updated',
  'product.deleted',
] as const;

export type EventTopic = (typeof EVENT_TOPICS)[number];

export function isEventTopic(topic: unknown): topic is EventTopic {
  return typeof topic === 'string' && (EVENT_TOPICS as readonly string[]).includes(topic);
}
