/**
 * The domain events of the service, in one place: topic → payload. The emitter (`DomainEvents.emit`), the handler
 * decorator (`@OnDomainEvent`), the webhook serializer (`webhookBody`) and the published list of webhook payloads
 * (OpenAPI `x-webhook-payloads`, README "Domain events") all derive from this map, so emitting a payload of the
 * wrong shape is a type error and a topic cannot be added without its documentation.
 *
 * Each payload holds the resource under its own member, in its admin representation where one exists (ids, decimal
 * money as numbers in the order's currency, ISO timestamps).
 *
 * The map imports nothing from the modules (src/events/ is a leaf): a payload that is a module's own admin
 * representation (the product, the collection, the customer) is declared by that module, which adds its topics to
 * `DomainEventMap` by declaration merging (catalogue/catalogue.events.ts, collections/collections.events.ts,
 * customers/customers.events.ts); every other payload is a plain type here.
 */

export interface OrderPlacedPayload {
  order: {
    id: string;
    number: string;
    /** Null for a guest order. */
    customer_id: string | null;
    email: string | null;
    /** Decimal total in `currency`. */
    total: number;
    currency: string;
    /** The payment type's name in the shop's language. */
    payment_type: string | null;
    checkout_token: string;
  };
}

export interface OrderPaidPayload {
  /** `financial_status` is `paid` once the total is paid, `partially_paid` before (issue 33). */
  order: { id: string; number: string; total: number; currency: string; financial_status: string; paid_amount: number };
  /** The payment that was received: a provider `capture` or a `manual` one recorded by staff. */
  payment: { id: string; kind: 'capture' | 'manual'; amount: number; reference: string | null };
}

export interface OrderShippedPayload {
  order: { id: string; number: string; tracking_url: string | null };
}

export interface OrderCancelledPayload {
  order: {
    id: string;
    number: string;
    reason: string | null;
    note: string | null;
    cancelled_at: string;
    financial_status: string;
    refunded_amount: number;
    currency: string;
    restocked_quantity: number;
    discount_code_released: boolean;
  };
  refund: { id: string; amount: number } | null;
}

export interface OrderRefundedPayload {
  order: { id: string; number: string; financial_status: string; refunded_amount: number; currency: string };
  refund: {
    id: string;
    created_at: string;
    amount: number;
    shipping: number;
    lines: Array<{ line_id: string; quantity: number; restock: boolean; amount: number }>;
    note: string | null;
  };
}

export interface OrderFulfilledPayload {
  order: { id: string; number: string; email: string | null; fulfillment_status: string };
  fulfillment: {
    id: string;
    created_at: string;
    lines: Array<{ line_id: string; quantity: number }>;
    tracking_number: string | null;
    tracking_url: string | null;
    carrier: string | null;
  };
  notify_customer: boolean;
}

export interface CheckoutCompletedPayload {
  checkout: { token: string; order_id: string; order_number: string };
}

export interface InventoryLevelUpdatedPayload {
  inventory_level: { inventory_item_id: string; location_id: string; available: number };
  /** The stock movement's reason (`import`, `order`, `restock`, ...). */
  reason: string;
}

export interface CollectionDeletedPayload {
  collection: { id: string };
}

export interface DiscountCodeRedeemedPayload {
  discount_code: { id: string; code: string };
  order_id: string;
}

export interface ThemePublishedPayload {
  theme: { id: string; name: string | null; role: string | null };
}

export interface CatalogueImportedPayload {
  /** Rows created and updated per kind (`products`, `variants`, ...). */
  import: { created: Record<string, number>; updated: Record<string, number> };
}

export interface ProductDeletedPayload {
  /** `archived`: kept, unpublished, for its orders. */
  product: { id: string; key: string; archived: boolean };
}

/** The admin promotion (declared here: the event map imports nothing from the promotions module). */
export interface PromotionPayload {
  promotion: {
    id: string;
    name: string;
    enabled: boolean;
    starts_at: string | null;
    ends_at: string | null;
    priority: number;
    kind: string;
    code: string | null;
    conditions: unknown[];
    actions: unknown[];
  };
}

export interface PromotionDeletedPayload {
  promotion: { id: string };
}

/** A return (RMA) at each step (issue 33); money in the order's currency. */
export interface ReturnPayload {
  return: {
    id: string;
    order_id: string;
    /** `requested`, `approved`, `received`, `refunded`, `rejected`. */
    status: string;
    requested_by: string;
    lines: Array<{ line_id: string; quantity: number; reason: string | null; quantity_received: number; quantity_damaged: number; location_id: string | null }>;
    refund_to: string | null;
    refunded_amount: number;
  };
}

/** A zone of the shop (taxes and shipping), as the admin API shows it (issue 31). */
export interface TaxZonePayload {
  tax_zone: {
    id: string;
    key: string | null;
    name: string;
    countries: string[];
    regions: string[];
    postcodes: Array<{ country: string; pattern: string }>;
    excise_currency: string | null;
    excise_in_vat_base: boolean;
    created_at: string;
    updated_at: string | null;
  };
}

export interface TaxZoneDeletedPayload {
  tax_zone: { id: string };
}

export interface TaxCategoryPayload {
  tax_category: { id: string; key: string; name: string; excise_class: string | null; created_at: string; updated_at: string | null };
}

export interface TaxRatePayload {
  tax_rate: {
    id: string;
    category_id: string;
    zone_id: string;
    rate: number;
    excise_per_hl: number;
    valid_from: string | null;
    valid_to: string | null;
    created_at: string;
    updated_at: string | null;
  };
}

/** A shipping method in its admin representation (README "Shipping"): declared here, filled by the shipping module. */
export interface ShippingMethodPayload {
  shipping_method: {
    id: string;
    key: string;
    name: Record<string, string>;
    price: number;
    tax_rate: number;
    countries: string[];
    free_over: number | null;
    delivery_days: number | null;
    rate_table: { basis: string; steps: Array<{ from: number; to: number | null; price: number }>; beyond: { every: number; price: number } | null } | null;
    zones: Array<{ zone: string; rate_table: unknown; free_over: number | null; delivery_days: number | null; excluded_postcodes: string[] }>;
    rate_provider: string | null;
    created_at: string;
    updated_at: string | null;
  };
}

export interface TaxSettingsPayload {
  tax_settings: { mode: string; gross_price_policy: string; excise_display: string };
}

export interface ShippingMethodDeletedPayload {
  shipping_method: { id: string; key: string };
}

/** The destination rules of one zone in their admin representation. */
export interface DestinationRulePayload {
  destination_rule: {
    id: string;
    zone: string;
    alcohol_shipping: boolean;
    max_litres_per_order: number | null;
    max_litres_per_year: number | null;
    min_age: number | null;
    created_at: string;
    updated_at: string | null;
  };
}

export interface DestinationRuleDeletedPayload {
  destination_rule: { id: string; zone: string };
}

/** A search synonym rule in its admin representation (issue 35, README "Search synonyms"). */
export interface SearchSynonymPayload {
  search_synonym: {
    id: string;
    key: string | null;
    kind: 'two_way' | 'one_way';
    terms: string[];
    synonyms: string[];
    created_at: string;
    updated_at: string | null;
  };
}

export interface SearchSynonymDeletedPayload {
  search_synonym: { id: string };
}

/** Topic → payload of every domain event (the catalogue, collections and customers modules add theirs, see above). */
export interface DomainEventMap {
  'order.placed': OrderPlacedPayload;
  'order.paid': OrderPaidPayload;
  'order.shipped': OrderShippedPayload;
  'order.cancelled': OrderCancelledPayload;
  'order.refunded': OrderRefundedPayload;
  'order.fulfilled': OrderFulfilledPayload;
  'checkout.completed': CheckoutCompletedPayload;
  'inventory_level.updated': InventoryLevelUpdatedPayload;
  'collection.deleted': CollectionDeletedPayload;
  'discount_code.redeemed': DiscountCodeRedeemedPayload;
  'theme.published': ThemePublishedPayload;
  'catalogue.imported': CatalogueImportedPayload;
  'product.deleted': ProductDeletedPayload;
  'promotion.created': PromotionPayload;
  'promotion.updated': PromotionPayload;
  'promotion.deleted': PromotionDeletedPayload;
  'return.requested': ReturnPayload;
  'return.received': ReturnPayload;
  'return.refunded': ReturnPayload;
  'return.rejected': ReturnPayload;
  'tax_zone.created': TaxZonePayload;
  'tax_zone.updated': TaxZonePayload;
  'tax_zone.deleted': TaxZoneDeletedPayload;
  'tax_category.created': TaxCategoryPayload;
  'tax_category.updated': TaxCategoryPayload;
  'tax_category.deleted': { tax_category: { id: string } };
  'tax_rate.created': TaxRatePayload;
  'tax_rate.updated': TaxRatePayload;
  'tax_rate.deleted': { tax_rate: { id: string } };
  'tax_settings.updated': TaxSettingsPayload;
  'shipping_method.created': ShippingMethodPayload;
  'shipping_method.updated': ShippingMethodPayload;
  'shipping_method.deleted': ShippingMethodDeletedPayload;
  'destination_rule.created': DestinationRulePayload;
  'destination_rule.updated': DestinationRulePayload;
  'destination_rule.deleted': DestinationRuleDeletedPayload;
  'search_synonym.created': SearchSynonymPayload;
  'search_synonym.updated': SearchSynonymPayload;
  'search_synonym.deleted': SearchSynonymDeletedPayload;
}

export type EventTopic = keyof DomainEventMap;

/**
 * The published description of each topic's payload (`data` of a webhook delivery), in topic order: typed over the
 * map, so a topic without a description does not compile. Served as `x-webhook-payloads` in the OpenAPI document
 * and listed in README.
 */
const RETURN_PAYLOAD =
  '{return: {id, order_id, status, requested_by, lines: [{line_id, quantity, reason, quantity_received, quantity_damaged, location_id}], refund_to, refunded_amount}}';

export const DOMAIN_EVENT_PAYLOADS: { readonly [T in EventTopic]: string } = {
  'order.placed': '{order: {id, number, customer_id, email, total, currency, payment_type, checkout_token}}',
  'order.paid': '{order: {id, number, total, currency, financial_status, paid_amount}, payment: {id, kind, amount, reference}}',
  'order.shipped': '{order: {id, number, tracking_url}}',
  'order.cancelled':
    '{order: {id, number, reason, note, cancelled_at, financial_status, refunded_amount, currency, restocked_quantity, discount_code_released}, refund: {id, amount} | null}',
  'order.refunded':
    '{order: {id, number, financial_status, refunded_amount, currency}, refund: {id, created_at, amount, shipping, lines: [{line_id, quantity, restock, amount}], note}}',
  'order.fulfilled':
    '{order: {id, number, email, fulfillment_status}, fulfillment: {id, created_at, lines: [{line_id, quantity}], tracking_number, tracking_url, carrier}, notify_customer}',
  'checkout.completed': '{checkout: {token, order_id, order_number}}',
  'customer.created': '{customer: <admin customer>}',
  'customer.updated': '{customer: <admin customer>}',
  'inventory_level.updated': '{inventory_level: {inventory_item_id, location_id, available}, reason}',
  'collection.created': '{collection: <admin collection>}',
  'collection.updated': '{collection: <admin collection>}',
  'collection.deleted': '{collection: {id}}',
  'discount_code.redeemed': '{discount_code: {id, code}, order_id}',
  'theme.published': '{theme: {id, name, role}}',
  'catalogue.imported': '{import: {created, updated}}',
  'product.created': '{product: <admin product>}',
  'product.updated': "{product: <admin product>} (a variant's change updates its product)",
  'product.deleted': '{product: {id, key, archived}}',
  'promotion.created': '{promotion: <admin promotion>}',
  'promotion.updated': '{promotion: <admin promotion>}',
  'promotion.deleted': '{promotion: {id}}',
  'return.requested': RETURN_PAYLOAD,
  'return.received': RETURN_PAYLOAD,
  'return.refunded': RETURN_PAYLOAD,
  'return.rejected': RETURN_PAYLOAD,
  'tax_zone.created': '{tax_zone: <admin tax zone>}',
  'tax_zone.updated': '{tax_zone: <admin tax zone>}',
  'tax_zone.deleted': '{tax_zone: {id}}',
  'tax_category.created': '{tax_category: <admin tax category>}',
  'tax_category.updated': '{tax_category: <admin tax category>}',
  'tax_category.deleted': '{tax_category: {id}}',
  'tax_rate.created': '{tax_rate: <admin tax rate>}',
  'tax_rate.updated': '{tax_rate: <admin tax rate>}',
  'tax_rate.deleted': '{tax_rate: {id}}',
  'tax_settings.updated': '{tax_settings: {mode, gross_price_policy, excise_display}}',
  'shipping_method.created': '{shipping_method: <admin shipping method>}',
  'shipping_method.updated': '{shipping_method: <admin shipping method>}',
  'shipping_method.deleted': '{shipping_method: {id, key}}',
  'destination_rule.created': '{destination_rule: <admin destination rule>}',
  'destination_rule.updated': '{destination_rule: <admin destination rule>}',
  'destination_rule.deleted': '{destination_rule: {id, zone}}',
  'search_synonym.created': '{search_synonym: <admin search synonym>}',
  'search_synonym.updated': '{search_synonym: <admin search synonym>}',
  'search_synonym.deleted': '{search_synonym: {id}}',
};
