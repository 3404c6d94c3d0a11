/**
 * The extension points of the service, in one place (README "Architecture", "Extension points").
 *
 * One pattern for all of them: an extension point is an abstract class (used as the Nest injection token where a
 * single implementation is injected directly). A module implements a point by listing a provider in its own
 * `providers` whose instance extends that class; `Extensions` (src/extensions/extensions.service.ts) gathers every
 * such instance of the whole app through Nest's discovery (`extensions.all(Point)`, `extensions.one(Point)`).
 * No registries, no mutable slots, no method replacement, no import-time globals, no `ModuleRef` lookups.
 *
 * Where several implementations may exist (payment providers, token resolvers, tenant-created hooks, admin
 * resources, visitor carry-over, price adjusters) all of them are consulted, in the order the modules were
 * registered (built-in modules first, then `createShopApp({imports})` in order). Where one answer is needed
 * (cart currency, product counts, order history) the last registered implementation wins, so an extension module
 * may replace the built-in one.
 */
import { DataSource, type EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import type { Principal } from './principal.js';
import { queueBacklog, type QueueBacklog } from '../common/db/queue-backlog.js';
import type { CleanupSweep } from '../common/db/sweep.js';

// ------------------------------------------------------------------------------------------ payment providers

/** What a provider gets when an order is placed (inside the placing transaction, before the order is numbered). */
export interface PaymentRequest {
  orderId: string;
  hash: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  precision: number;
  paymentType: { id: string; key: string; kind: string };
  /** Where the buyer returns; null for offline kinds. */
  returnUrl: string | null;
  /** Scheme and host the request came in on (for URLs back into this service). */
  baseUrl: string;
}

export interface PaymentInitiation {
  /** Where to send the buyer (null: no redirect). */
  paymentUrl: string | null;
  /** The provider's reference (session id, ...), stored on the order. */
  reference: string | null;
}

/** A capture, refund or void of an order's payment (issue 17). */
export interface PaymentOperation {
  orderId: string;
  /** The provider's reference from `initiate()` (or of the capture being refunded). */
  reference: string | null;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  precision: number;
}

export interface PaymentOperationResult {
  /** `failed` leaves the order unchanged: the caller answers 422 `payment_provider_declined`. */
  status: 'succeeded' | 'failed';
  /** The provider's reference of this operation, stored on the order's transaction. */
  reference: string | null;
  /** Why it failed, for the error message. */
  message?: string;
}

/**
 * **Payment provider** (several). Serves payment types by `kind` (the import's `payment_types[].kind`); for a kind
 * served by several providers the last registered wins (an extension replaces the built-in `redirect` test
 * provider). A provider reports the outcome later by calling `OrdersService.recordPayment(ctx, orderId, 'paid' |
 * 'cancelled')` (the built-in test provider does so from its test page).
 */
export abstract class PaymentProvider {
  /** Stable name, stored on the order. */
  abstract readonly name: string;
  /** Payment type kinds it serves. */
  abstract readonly kinds: readonly string[];
  /** True when the buyer must be redirected (return_url then required). */
  abstract readonly redirects: boolean;
  abstract initiate(ctx: RequestContext, request: PaymentRequest): Promise<PaymentInitiation>;
  /** Takes the authorized money when the payment is confirmed (`OrdersService.recordPayment(..., 'paid')`). */
  abstract capture(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
  /** Returns captured money (a refund or a cancellation of a paid order). */
  abstract refund(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
  /** Drops an authorization that was never captured (a cancelled or expired unpaid order). */
  abstract void(ctx: RequestContext, op: PaymentOperation): Promise<PaymentOperationResult>;
}

// ------------------------------------------------------------------------------------------ authentication

/**
 * **Token resolver** (several, one per prefix). Resolves bearer tokens of another family than the built-in
 * `vnstat_`/`vnstss_` access tokens (the shoppers' `vnscat_`, say): `prefix` is the part before the first `_`.
 * Returns null for an unknown, revoked or expired token (401). Called once per request and token.
 */
export abstract class TokenResolver {
  abstract readonly prefix: string;
  abstract resolve(token: string): Promise<Principal | null>;
}

/**
 * **Admin resource** (several). Each instance makes `Shop/<name>/read` and `Shop/<name>/write` valid admin scopes
 * (CONTRACT 3); new shop owners hold them (existing staff: `shop staff permissions --set ...`). Register it with
 * `providers: [adminResource('loyalty')]`. `name`: lower-case letters and `_`.
 */
export class AdminResource {
  constructor(readonly name: string) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`admin resource "${name}": use lower-case letters and _`);
  }
}

/** The provider of an admin resource for a module's `providers`. */
export function adminResource(name: string): { provide: string; useValue: AdminResource } {
  return { provide: `AdminResource:${name}`, useValue: new AdminResource(name) };
}

// ------------------------------------------------------------------------------------------ shops

/**
 * **Tenant-created hook** (several). Runs inside the transaction that creates a shop (`ctx.manager` open, tenant
 * set): whatever a new shop needs (its default theme, say). Throwing rolls the shop back.
 */
export abstract class TenantCreatedHook {
  abstract onTenantCreated(ctx: RequestContext, tenant: { id: string; handle: string; name: string }): Promise<void>;
}

// ------------------------------------------------------------------------------------------ storefront

/**
 * **Cart-currency resolver** (one). Which currency the request's visitor or shopper cart is in (CONTRACT 4: the
 * storefront's active currency when no `currency` parameter is given); null: none, the shop's default applies.
 * The API guard consults it for storefront and customer requests. Built in: the cart module.
 */
export abstract class CartCurrencyResolver {
  abstract cartCurrencyId(ctx: RequestContext): Promise<string | null>;
}

/**
 * **Visitor carry-over** (several). At sign-in, moves what the anonymous visitor had (cart, wishlist) to the
 * shopper. A failing participant is logged and never fails the sign-in. Built in: cart and wishlist.
 */
export abstract class VisitorCarryOverParticipant {
  /** For the log line (`cart`, `wishlist`). */
  abstract readonly name: string;
  abstract mergeVisitorIntoCustomer(ctx: RequestContext, visitorId: string, customerId: string): Promise<void>;
}

/**
 * **Product-count source** (one). Products per collection id (the admin collections' `products_count`); absent
 * ids count 0. Built in: the catalogue; without any, every collection counts 0.
 */
export abstract class ProductCountSource {
  abstract productsCounts(ctx: RequestContext, collectionIds: string[]): Promise<Map<string, number>>;
}

/**
 * **Order history** (one). Whether any order line names one of these products or variants, read in the caller's
 * transaction (`manager`): the catalogue archives such a product or variant instead of deleting it. Built in: the
 * checkout module (which owns `order_lines`); without one, nothing counts as ordered.
 */
export abstract class OrderHistory {
  abstract anyOrdered(manager: EntityManager, tenantId: string, items: { productIds: string[]; variantIds: string[] }): Promise<boolean>;
  /** Whether the customer has placed an order (the promotions' `first_order` condition; issue 32). */
  abstract customerHasOrdered(manager: EntityManager, tenantId: string, customerId: string): Promise<boolean>;
}

/** A return (RMA) of an order, as the admin order shows it (issue 33; README "Returns and claims"). */
export interface AfterSalesReturn {
  id: string;
  order_id: string;
  status: string;
  requested_by: string;
  lines: Array<{ line_id: string; quantity: number; reason: string | null; quantity_received: number; quantity_damaged: number; location_id: string | null }>;
  note: string | null;
  rejected_reason: string | null;
  shipping_fee: number;
  refund_to: string | null;
  refunded_amount: number;
  created_at: string;
  received_at: string | null;
  refunded_at: string | null;
}

/** A claim (breakage, wrong item) of an order, as the admin order shows it. */
export interface AfterSalesClaim {
  id: string;
  order_id: string;
  type: string;
  lines: Array<{ line_id: string; quantity: number; reason: string | null }>;
  reason: string | null;
  note: string | null;
  refund_id: string | null;
  replacement_order_id: string | null;
  created_at: string;
}

/**
 * **Order after-sales** (one). An order's returns and claims, oldest first, read in the caller's transaction (`ctx`),
 * for the admin order's `returns` and `claims` members. Built in: the returns module (which owns them and builds on
 * the checkout module, so it cannot be asked directly); without one, both are empty.
 */
export abstract class OrderAfterSales {
  abstract ofOrder(ctx: RequestContext, orderId: string): Promise<{ returns: AfterSalesReturn[]; claims: AfterSalesClaim[] }>;
}

// ------------------------------------------------------------------------------------------ domain events

// The outbox sink point (`OutboxSink`, several) is the events module's: src/events/outbox-sink.ts (its statement reads the events module's relation).

/** What a committed transaction's events left to do (issue 34: a worker with nothing new is not woken). */
export interface OutboxWork {
  /** Handler jobs were written (an in-process handler listens to one of the events). */
  jobs: boolean;
  /** An outbox sink wrote rows (the webhooks module: deliveries to an active subscription). */
  sinkRows: boolean;
}

/**
 * **Outbox commit listener** (several). Told after a transaction that recorded events has committed, with what they
 * left to do (`OutboxWork`), so a worker with work starts at once instead of at its next poll. Must not throw or
 * block (a failure is logged). Built in: the event handler and webhook delivery workers.
 */
export abstract class OutboxCommitListener {
  abstract outboxCommitted(work: OutboxWork): void;
}

/**
 * **Queue backlog source** (several). A module owning a queue table reports its pending work for the
 * `outbox_backlog*` metrics and the readiness report (`queue` names it there). Built in: the events module's
 * handler jobs (`handlers`) and the webhooks module's deliveries (`webhooks`).
 */
export abstract class QueueBacklogSource {
  abstract readonly queue: string;
  abstract backlog(): Promise<QueueBacklog>;
}

/** A queue table's backlog as a `QueueBacklogSource` (the owning module lists the provider for its own table). */
class TableQueueBacklog extends QueueBacklogSource {
  constructor(
    readonly queue: string,
    private readonly table: string,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  backlog(): Promise<QueueBacklog> {
    return queueBacklog(this.dataSource.manager, this.table);
  }
}

/** The provider of a queue table's backlog (`status`, `created_at`, `next_attempt_at`) for a module's `providers`. */
export function queueBacklogOf(queue: string, table: string) {
  return {
    provide: `QueueBacklogSource:${queue}`,
    useFactory: (dataSource: DataSource) => new TableQueueBacklog(queue, table, dataSource),
    inject: [DataSource],
  };
}

/**
 * **Cleanup sweeps** (several, in module order). A module owning a table whose old rows the maintenance job deletes
 * declares them (`cleanupSweepsOf(...)` in its providers): each sweep's selection is written by the owner, the job
 * only runs them in bounded batches. Built in: customers (tokens, one-time codes), checkout (idempotency keys),
 * webhooks (attempts, deliveries, then the delivered outbox events nothing waits on), cart (anonymous carts).
 */
export abstract class CleanupSweeps {
  abstract readonly sweeps: readonly CleanupSweep[];
}

class DeclaredSweeps extends CleanupSweeps {
  constructor(readonly sweeps: readonly CleanupSweep[]) {
    super();
  }
}

/** The provider of a module's cleanup sweeps (`name` keys the provider: one per module), for its `providers`. */
export function cleanupSweepsOf(name: string, sweeps: readonly CleanupSweep[]) {
  return { provide: `CleanupSweeps:${name}`, useValue: new DeclaredSweeps(sweeps) };
}

// ------------------------------------------------------------------------------------------ pricing

/** One line as the catalogue prices it now: unit prices in the shop's default currency (decimal strings). */
export interface PriceLine {
  variantId: string;
  productId: string;
  /** Decimal quantity. */
  quantity: number;
  /** Unit gross and net in the default currency. */
  gross: string;
  net: string;
  /** Percent, e.g. 8.1. */
  taxRate: number;
}

export interface PriceAdjustmentRequest {
  /** The signed-in shopper the cart or checkout belongs to; null for a guest or visitor. */
  customerId: string | null;
  /** The lines after the adjusters registered before this one. */
  lines: readonly PriceLine[];
}

/** A line's new unit prices in the default currency (non-negative decimal strings). */
export interface PriceOverride {
  gross: string;
  net: string;
}

/**
 * **Price adjuster** (several). Consulted whenever the cart and the checkout price their lines (every cart read,
 * checkout read and order placement, so all three always agree), before currency conversion, coupons, shipping
 * and taxes. Returns one entry per request line, in order: a replacement unit price or null to keep it. Adjusters
 * run in registration order, each seeing the previous ones' result. Reads run in the caller's transaction
 * (`ctx.manager` when open). An answer of the wrong length or a negative/invalid price is a programming error
 * (500), never silently applied.
 */
export abstract class PriceAdjuster {
  abstract adjust(ctx: RequestContext, request: PriceAdjustmentRequest): Promise<ReadonlyArray<PriceOverride | null>>;
}

// ------------------------------------------------------------------------------------------ promotions
export * from './promotion-points.js';

// ------------------------------------------------------------------------------------------ taxes

/** What a tax provider is asked: the checkout's lines, its destination and the shop's basis (issue 31). */
export interface TaxProviderRequest {
  currency: { code: string; precision: number };
  pricesIncludeTax: boolean;
  /** The shipping address (the billing one when nothing ships); null when none is known yet. */
  destination: { country: string | null; region: string | null; postcode: string | null } | null;
  lines: ReadonlyArray<{
    variantId: string;
    quantity: number;
    /** The variant's own (origin) rate, and the key of its tax category (null: none). */
    originRate: number;
    category: string | null;
    /** Unit price in the shop's default currency, in the shop's basis (decimal string). */
    unitPrice: string;
  }>;
  /** The chosen shipping method's price (default currency, shop basis), or null. */
  shipping: { price: string; originRate: number } | null;
}

/** The provider's answer: the rate (percent) of each line, by variant, and of shipping; excise stays the shop's. */
export interface TaxProviderAnswer {
  lines: ReadonlyArray<{ variantId: string; rate: number }>;
  shippingRate: number | null;
}

/**
 * **Tax provider** (one; the last registered wins). For a shop that delegates tax to an outside service: asked on
 * every checkout pricing of a shop in `destination` mode; it returns the rates, the service prices with them (one
 * totals formula). An answer later than `TAX_PROVIDER_TIMEOUT_MS` (default 2000), an error, or an answer missing a
 * line falls back to the shop's own tables, with a warning logged and `tax_provider_fallbacks_total` counted.
 */
export abstract class TaxProvider {
  abstract readonly name: string;
  abstract rates(ctx: RequestContext, request: TaxProviderRequest): Promise<TaxProviderAnswer>;
}

// ------------------------------------------------------------------------------------------ replaceable services

/**
 * **Mail transport** (one, the last registered wins: `extensions.one(MailTransport)`). Built in: the customers'
 * `MailModule`, SMTP by `SMTP_URL`, else the log. An extension module registers its own provider; tests may replace
 * it for the whole app with `createShopApp({imports: [MailTransportOverrideModule.use(transport)]})`.
 */
export { MailTransport, type MailMessage } from './mail-transport.js';
/** **Asset stores** (one, the last registered wins: `extensions.one(AssetStores)`): where theme asset bytes live. Built in: the themes module's, by `THEME_ASSET_STORE`. */
export { AssetStores, type AssetStore } from './asset-store.js';
/** **Catalogue index statistics** (one): figures of the in-memory catalogue for metrics. Built in: the catalogue. */
export { CatalogueIndexStats, type CatalogueIndexSnapshot } from './catalogue-index-stats.js';
/** **Catalogue search** (one, the last registered wins: `extensions.one(CatalogueSearch)`): the storefront catalogue engine. Built in: the catalogue engine module's `CatalogueIndexService`. */
export * from './catalogue-search.js';
export type { Principal } from './principal.js';
export type { QueueBacklog } from '../common/db/queue-backlog.js';
/** **Transaction listeners** (several): typed hooks around every commit and rollback (the outbox writes its events). */
export { TransactionListener } from './transaction-listener.js';
