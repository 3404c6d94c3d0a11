import { AccessToken } from '../auth/entities/access-token.entity.js';
import { StaffUser } from '../auth/entities/staff-user.entity.js';
import { Collection } from '../collections/entities/collection.entity.js';
import { BlogArticle } from '../content/entities/blog-article.entity.js';
import { ContentPage } from '../content/entities/content-page.entity.js';
import { CustomerAddress } from '../customers/entities/customer-address.entity.js';
import { Customer } from '../customers/entities/customer.entity.js';
import { CustomerOneTimeToken } from '../customers/entities/customer-one-time-token.entity.js';
import { CustomerToken } from '../customers/entities/customer-token.entity.js';
import { DiscountCode } from '../discounts/entities/discount-code.entity.js';
import { Country } from '../tenancy/entities/country.entity.js';
import { Currency } from '../tenancy/entities/currency.entity.js';
import { Tenant } from '../tenancy/entities/tenant.entity.js';
import { eventEntities } from '../events/entities/index.js';
import { webhookEntities } from '../webhooks/entities/index.js';
import { ThemeAsset } from '../themes/entities/theme-asset.entity.js';
import { Theme } from '../themes/entities/theme.entity.js';
import { catalogueEntities } from '../catalogue/entities/catalogue.entities.js';
import { checkoutEntities } from '../checkout/entities/checkout.entities.js';
import { shippingEntities } from '../shipping/entities/shipping.entities.js';
import { CartItem } from '../cart/entities/cart-item.entity.js';
import { Cart } from '../cart/entities/cart.entity.js';
import { TaxZone } from '../tax/entities/tax-zone.entity.js';
import { TaxCategory, TaxRate } from '../tax/entities/tax.entities.js';
import { WishlistItem } from '../wishlist/entities/wishlist-item.entity.js';
import { Promotion } from '../promotions/entities/promotion.entity.js';
import { CustomerGroup, CustomerGroupMember } from '../promotions/entities/customer-group.entity.js';
import { BalanceAccount } from '../gift-cards/entities/balance-account.entity.js';
import { SearchSynonym } from '../search-synonyms/entities/search-synonym.entity.js';

/** Every entity of the service. A feature module adds its own here. */
export const entities = [
  Tenant,
  Currency,
  Country,
  StaffUser,
  AccessToken,
  Collection,
  Customer,
  CustomerAddress,
  CustomerToken,
  CustomerOneTimeToken,
  ContentPage,
  BlogArticle,
  DiscountCode,
  Theme,
  ThemeAsset,
  ...catalogueEntities,
  ...shippingEntities,
  Cart,
  CartItem,
  WishlistItem,
  ...eventEntities,
  ...webhookEntities,
  ...checkoutEntities,
  Promotion,
  CustomerGroup,
  CustomerGroupMember,
  BalanceAccount,
  TaxZone,
  TaxCategory,
  TaxRate,
  SearchSynonym,
];
