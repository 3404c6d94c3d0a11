import { Foundation1764000000000 } from './1764000000000-foundation.js';
import { AdminResources1764000001000 } from './1764000001000-admin-resources.js';
import { Themes1764000002000 } from './1764000002000-themes.js';
import { Catalogue1764000003000 } from './1764000003000-catalogue.js';
import { EventsWebhooks1764000004000 } from './1764000004000-events-webhooks.js';
import { CartWishlist1764000005000 } from './1764000005000-cart-wishlist.js';
import { CustomerAccounts1764000006000 } from './1764000006000-customer-accounts.js';
import { Checkout1764000007000 } from './1764000007000-checkout.js';
import { CatalogueSpeed1764000008000 } from './1764000008000-catalogue-speed.js';
import { TenantKeys1764000099000 } from './1764000099000-tenant-keys.js';
import { CatalogueDeltas1764000140000 } from './1764000140000-catalogue-deltas.js';
import { Security1764000113000 } from './1764000113000-security.js';
import { OrderLifecycle1764000170000 } from './1764000170000-order-lifecycle.js';
import { AdminCatalogue1764000118000 } from './1764000118000-admin-catalogue.js';
import { OutboxTraceContext1764000190000 } from './1764000190000-outbox-trace-context.js';
import { AuthNotify1764000200000 } from './1764000200000-auth-notify.js';
import { Promotions1795697921947 } from './1795697921947-promotions.js';
import { CustomerGroups1795699692019 } from './1795699692019-customer-groups.js';
import { PromotionUsages1795701000000 } from './1795701000000-promotion-usages.js';
import { StaffPayments1795695708360 } from './1795695708360-staff-payments.js';
import { GiftCards1795696337323 } from './1795696337323-gift-cards.js';
import { Returns1795698104874 } from './1795698104874-returns.js';
import { TaxZones1795695774008 } from './1795695774008-tax-zones.js';
import { TaxRates1795696655966 } from './1795696655966-tax-rates.js';
import { ShippingRates1795696097429 } from './1795696097429-shipping-rates.js';
import { CatalogueSalePrices1795700100000 } from './1795700100000-catalogue-sale-prices.js';
import { OrdersTaxShipping1795701931031 } from './1795701931031-orders-tax-shipping.js';
import { GiftCardSales1795706058710 } from './1795706058710-gift-card-sales.js';
import { ReadPathNotify1795707000000 } from './1795707000000-read-path-notify.js';
import { LedgerOrder1795708000000 } from './1795708000000-ledger-order.js';
import { LowestPriorMaterialised1795708500000 } from './1795708500000-lowest-prior-materialised.js';
import { SearchSynonyms1795709000000 } from './1795709000000-search-synonyms.js';
import { CheckoutOptionsNotify1795709340000 } from './1795709340000-checkout-options-notify.js';
import { CollectionsNotify1795709400000 } from './1795709400000-collections-notify.js';
import { CheckoutShownPromotions1795709500000 } from './1795709500000-checkout-shown-promotions.js';

/** Every migration, in order. A feature adds its own file here. */
export const migrations = [
  Foundation1764000000000,
  AdminResources1764000001000,
  Themes1764000002000,
  Catalogue1764000003000,
  EventsWebhooks1764000004000,
  CartWishlist1764000005000,
  CustomerAccounts1764000006000,
  Checkout1764000007000,
  CatalogueSpeed1764000008000,
  TenantKeys1764000099000,
  Security1764000113000,
  AdminCatalogue1764000118000,
  CatalogueDeltas1764000140000,
  OrderLifecycle1764000170000,
  OutboxTraceContext1764000190000,
  AuthNotify1764000200000,
  Promotions1795697921947,
  CustomerGroups1795699692019,
  PromotionUsages1795701000000,
  StaffPayments1795695708360,
  GiftCards1795696337323,
  Returns1795698104874,
  TaxZones1795695774008,
  TaxRates1795696655966,
  ShippingRates1795696097429,
  CatalogueSalePrices1795700100000,
  OrdersTaxShipping1795701931031,
  GiftCardSales1795706058710,
  ReadPathNotify1795707000000,
  LedgerOrder1795708000000,
  LowestPriorMaterialised1795708500000,
  SearchSynonyms1795709000000,
  CheckoutOptionsNotify1795709340000,
  CollectionsNotify1795709400000,
  CheckoutShownPromotions1795709500000,
];
