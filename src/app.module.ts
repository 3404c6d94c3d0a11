import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from './auth/auth.module.js';
import { ApiGuard } from './auth/api.guard.js';
import { RateLimitGuard } from './common/auth/rate-limit.js';
import { ClusterModule } from './common/cluster/cluster.module.js';
import { ReadReplicasModule } from './database/read-replicas.module.js';
import { rateLimitStoreProvider } from './common/cluster/redis-rate-limit.store.js';
import { initializeDataSource, replicaUrls, withReplicas } from './database/replication.js';
import { CommonModule } from './common/common.module.js';
import { ExtensionsModule } from './extensions/extensions.module.js';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor.js';
import { ErrorEnvelopeFilter } from './common/http/error-envelope.filter.js';
import { JsonBodyGuard } from './common/http/json-body.guard.js';
import { ApiValidationPipe } from './common/http/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { dataSourceOptions, DataSourceExtras } from './database/data-source.js';
import { TransactionListenersModule } from './database/transaction-listeners.js';
import { setPreparedStatements } from './database/prepared-statements.js';
import { HealthModule } from './health/health.module.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { CollectionsModule } from './collections/collections.module.js';
import { ContentModule } from './content/content.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { DiscountsModule } from './discounts/discounts.module.js';
import { TenancyModule } from './tenancy/tenancy.module.js';
import { EventsModule } from './events/events.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { ThemesModule } from './themes/themes.module.js';
import { CatalogueModule } from './catalogue/catalogue.module.js';
import { InventoryModule } from './inventory/inventory.module.js';
import { CheckoutModule } from './checkout/checkout.module.js';
import { GiftCardsModule } from './gift-cards/gift-cards.module.js';
import { ReturnsModule } from './returns/returns.module.js';
import { ShippingModule } from './shipping/shipping.module.js';
import { CartModule } from './cart/cart.module.js';
import { WishlistModule } from './wishlist/wishlist.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { PromotionsModule } from './promotions/promotions.module.js';
import { TaxModule } from './tax/tax.module.js';
import { SearchSynonymsModule } from './search-synonyms/search-synonyms.module.js';

/** The feature modules of the service, in the order they build on each other. */
export const FEATURE_MODULES: Type[] = [
  TenancyModule,
  AuthModule,
  HealthModule,
  CollectionsModule,
  CustomersModule,
  ContentModule,
  DiscountsModule,
  ThemesModule,
  CatalogueModule,
  CartModule,
  WishlistModule,
  EventsModule,
  WebhooksModule,
  InventoryModule,
  GiftCardsModule,
  ShippingModule,
  CheckoutModule,
  ReturnsModule,
  TaxModule,
  SearchSynonymsModule,
  MaintenanceModule,
  PromotionsModule,
];

export interface AppModuleOptions extends DataSourceExtras {
  config: AppConfig;
  databaseUrl: string;
  /** Extension modules added beside the built-in ones. */
  imports?: Array<Type | DynamicModule>;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    setPreparedStatements(options.config.DATABASE_PREPARED_STATEMENTS);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        TypeOrmModule.forRootAsync({
          useFactory: () =>
            withReplicas(
              dataSourceOptions(options.databaseUrl, options, {
                slowQueryMs: options.config.SLOW_QUERY_MS,
                poolSize: options.config.DATABASE_POOL_SIZE,
                acquireTimeoutMs: options.config.DATABASE_ACQUIRE_TIMEOUT_MS,
                idleInTransactionMs: options.config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
              }),
              replicaUrls(options.config.DATABASE_REPLICA_URLS),
            ),
          dataSourceFactory: async (o) => initializeDataSource(o!),
        }),
        CommonModule,
        ExtensionsModule.forApp(options.imports ?? []),
        TransactionListenersModule,
        ObservabilityModule,
        ClusterModule,
        ReadReplicasModule,
        ...FEATURE_MODULES,
        ...(options.imports ?? []),
      ],
      providers: [
        rateLimitStoreProvider,
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: ApiGuard },
        // last: bodies are read only once the token is verified
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
    };
  }
}
