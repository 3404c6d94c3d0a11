/**
 * The topics of the cache bus (`CacheBus`, LISTEN/NOTIFY on `vinoshop_cache`), in one place: topic → the members a
 * message carries besides `t` (topic), `id` (tenant, null: every tenant) and `o` (origin). Like `DomainEventMap`
 * for domain events: `subscribe` and `publish` take only a topic of this map, so a misspelt topic is a type error
 * and the list of what instances tell each other is read here. Plain types: common/ imports no module; the module
 * named in each comment owns the cache (and exports the topic's constant).
 *
 * Some topics are also published by database triggers (origin `db`): `auth` (access tokens, staff permissions),
 * `tax_settings`, `destination_rules`, `checkout_balances` (migration 1795707000000), `checkout_options` (migration
 * 1795709340000), `collections` (migration 1795709400000) and `catalogue.delta`
 * (migration 1764000140000); their names are frozen there. An extension module adds a topic of its own the same
 * way events are added: `declare module` merging into this interface.
 */
export interface ClusterEventMap {
  /** tenancy: a shop's settings, currencies or countries changed. */
  tenancy: object;
  /** auth: a tenant's access tokens were revoked or a staff user's permissions changed. */
  auth: object;
  /** customers: a shopper's sessions of the tenant were revoked. */
  customer_auth: object;
  /** tax: the shop's tax settings, zones, categories or rates changed. */
  tax_settings: object;
  /** shipping: the shop's destination rules changed. */
  destination_rules: object;
  /** shipping: the shop's shipping methods, payment types or shipping countries changed (the checkout's cached options). */
  checkout_options: object;
  /** collections: the shop's collections or their picked products changed (the suggestions' copy; migration 1795709400000). */
  collections: object;
  /** gift cards: a checkout of the shop had a gift card or store credit applied or removed. */
  checkout_balances: object;
  /** promotions: the start or end times of the shop's catalogue promotions changed (re-arm the timers). */
  'promotions.timers': object;
  /** search-synonyms: the shop's search synonym rules changed (also sent by the table's trigger, migration 1795709000000). */
  search_synonyms: object;
  /** catalogue: the shop's catalogue changed (facet names and other read caches). */
  catalogue: object;
  /**
   * catalogue engine: one committed catalogue change, published by the database (`v` version, `c` change id, `k`
   * kind, `d` data, `at` commit time); applied by each instance's in-memory index.
   */
  'catalogue.delta': { v?: unknown; c?: unknown; k?: unknown; d?: unknown; at?: unknown };
}

/** A topic of the cache bus. */
export type ClusterTopic = keyof ClusterEventMap;
