/**
 * The public surface of the service for extension modules (package entry `.`; test helpers: `./testing`).
 * Everything an extension may use is exported here and nothing else is supported: `examples/` import only from this
 * file (enforced by `npm run lint:deps`). See README "Architecture" for the extension points and the rules.
 */

// ---------------------------------------------------------------------------- building the app
export { API_PREFIX, API_VERSION, createShopApp, createShopContext, openApiDocumentOf } from './app.js';
export type { CreateAppOptions } from './app.js';
export { AppConfig, ConfigError, loadConfig } from './config/app-config.js';

// ---------------------------------------------------------------------------- extension points (Nest DI)
export {
  AdminResource,
  adminResource,
  AssetStores,
  CartCurrencyResolver,
  CatalogueSearch,
  CataloguePriceRule,
  MailTransport,
  OrderAfterSales,
  OrderHistory,
  PaymentProvider,
  PriceAdjuster,
  ProductCountSource,
  PromotionAction,
  PromotionCondition,
  TaxProvider,
  TenantCreatedHook,
  TokenResolver,
  VisitorCarryOverParticipant,
} from './extensions/extension-points.js';
export { MailTransportOverrideModule } from './customers/index.js';
export { ShippingRateProvider } from './extensions/shipping-rate-provider.js';
export type { ShippingRate, ShippingRateRequest } from './extensions/shipping-rate-provider.js';
export type {
  AfterSalesClaim,
  AfterSalesReturn,
  AssetStore,
  CatalogueSearchRequest,
  CatalogueSearchResult,
  MailMessage,
  PaymentInitiation,
  PaymentOperation,
  PaymentOperationResult,
  PaymentRequest,
  PriceAdjustmentRequest,
  PriceLine,
  PriceOverride,
  PromotionCartView,
  PromotionLineView,
  TaxProviderAnswer,
  TaxProviderRequest,
} from './extensions/extension-points.js';
export { Extensions } from './extensions/extensions.service.js';
export type { ExtensionPoint } from './extensions/extensions.service.js';
export type { Principal } from './extensions/principal.js';

// ---------------------------------------------------------------------------- promotions
export { PromotionsService } from './promotions/index.js';

// ---------------------------------------------------------------------------- domain events
export type * from './events/event-map.js';
export { DOMAIN_EVENT_PAYLOADS } from './events/event-map.js';
export type { DomainEvent, DomainEventHandler } from './events/domain-event.js';
export { DomainEvents } from './events/domain-events.service.js';
export { EVENT_TOPICS, isEventTopic } from './events/event-topics.js';
export { OnDomainEvent } from './events/on-domain-event.decorator.js';
export { webhookBody } from './webhooks/webhook-delivery.worker.js';
export type { WebhookBody } from './webhooks/webhook-delivery.worker.js';

// ---------------------------------------------------------------------------- HTTP: auth, context, envelopes, errors
export { Auth } from './common/auth/auth.decorator.js';
export type { AuthOptions } from './common/auth/auth.decorator.js';
export { Ctx, RequestContext } from './common/context/request-context.js';
export type { Actor, CurrencyInfo, Tier } from './common/context/request-context.js';
export { Envelope } from './common/http/envelope.js';
export { UuidParam } from './common/http/uuid-param.js';
export { AppError } from './common/http/app-error.js';
export type { ErrorEnvelope } from './common/http/app-error.js';
export { ApiErrors } from './common/openapi/api-errors.decorator.js';

// ---------------------------------------------------------------------------- paging
export { Page } from './common/paging/page.js';
export { PageQueryDto } from './common/paging/page-query.dto.js';
export { ListParams } from './common/paging/list-params.js';
export { Pager } from './common/paging/pager.service.js';
export type { PageRequest, SortKey, SortValue } from './common/paging/pager.service.js';

// ---------------------------------------------------------------------------- data and jobs
export { TenantEntity } from './common/db/base.entity.js';
export type { Translations } from './common/db/base.entity.js';
export { getOrThrow, inTransaction, isUniqueViolation, managerOf, repoOf } from './common/db/tenant-scope.js';
export { translate, withTranslation } from './common/i18n.js';
export { runExclusive } from './common/cluster/exclusive-job.js';
export { PollingWorker } from './events/polling-worker.js';
// typed reads of the service's own tables (an extension reads them through these, never by SQL of its own)
export { isCustomerOf } from './customers/index.js';
export { productIdOfVariant } from './catalogue/index.js';
