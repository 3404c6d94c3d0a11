// The storefront's own words (catalogue text comes translated from the API by `locale`); German in i18n-de.ts.
import { de } from './i18n-de';
import { catalogueWords } from './i18n-catalogue';

const en = {
  ...catalogueWords.en,
  skip: 'Skip to content',
  shopName: 'Vinoshop',
  search: 'Search wines',
  searchButton: 'Search',
  language: 'Language',
  currency: 'Currency',
  cart: 'Cart',
  account: 'Account',
  signIn: 'Sign in',
  signUp: 'Create account',
  signOut: 'Sign out',
  filters: 'Filters',
  clearFilters: 'Clear all filters',
  showResults: 'Show {count} results',
  showResultsAny: 'Show results',
  closeFilters: 'Close filters',
  resultCount: '{count} wines',
  price: 'Price',
  priceFrom: 'Minimum price',
  priceTo: 'Maximum price',
  availableOnly: 'In stock only',
  onSaleOnly: 'On sale',
  sortBy: 'Sort by',
  'order.created desc': 'Newest',
  'order.price asc': 'Price: low to high',
  'order.price desc': 'Price: high to low',
  'order.title asc': 'Name A–Z',
  'order.rating desc': 'Best rated',
  'order.relevance': 'Best match',
  more: 'Show more wines',
  noResults: 'No wines match these filters.',
  results: 'Wines',
  resultsFor: 'Results for',
  from: 'from',
  sale: 'Sale',
  soldOut: 'Sold out',
  inStock: 'In stock',
  loading: 'Loading…',
  'facet.manufacturers': 'Producer',
  'facet.categories': 'Category',
  'facet.colors': 'Colour',
  'facet.sizes': 'Bottle size',
  'facet.years': 'Vintage',
  'facet.countries': 'Country',
  'facet.regions': 'Region',
  'facet.custom_fields': 'Grape & closure',
  showAll: 'Show all',
  showFewer: 'Show fewer',
  collections: 'Collections',
  allWines: 'All wines',
  variant: 'Bottle',
  vintage: 'Vintage',
  size: 'Size',
  quantity: 'Quantity',
  quantityRule: 'Minimum {min}, in steps of {step}',
  quantityMax: ', at most {max}',
  addToCart: 'Add to cart',
  added: 'Added to your cart.',
  viewCart: 'View cart',
  factsheet: 'Factsheet (PDF)',
  details: 'Details',
  alcohol: 'Alcohol',
  area: 'Area',
  country: 'Country',
  producer: 'Producer',
  rating: 'Rating',
  inclVat: 'incl. VAT',
  exclVat: 'excl. VAT',
  cartEmpty: 'Your cart is empty.',
  continueShopping: 'Continue shopping',
  remove: 'Remove',
  subtotal: 'Subtotal',
  discount: 'Discount',
  total: 'Total',
  coupon: 'Coupon code',
  applyCoupon: 'Apply',
  removeCoupon: 'Remove coupon',
  couponApplied: 'Coupon {code} applied.',
  checkout: 'Checkout',
  toCheckout: 'Go to checkout',
  email: 'Email',
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  street: 'Street',
  houseNumber: 'No.',
  zip: 'Postcode',
  city: 'City',
  phone: 'Phone',
  address: 'Delivery address',
  shipping: 'Shipping',
  shippingMethod: 'Shipping method',
  chooseCountry: 'Choose the delivery country to see the shipping methods.',
  payment: 'Payment',
  paymentType: 'Payment method',
  delivery: 'delivery by {date}',
  free: 'free',
  terms: 'I accept the terms and conditions',
  termsLink: 'Terms',
  privacyLink: 'Privacy policy',
  age: 'I confirm that I am at least {age} years old',
  placeOrder: 'Place order',
  placing: 'Placing your order…',
  guestDisabled: 'This shop requires an account to order. Please sign in.',
  thankYou: 'Thank you for your order',
  orderNumber: 'Order {number}',
  status: 'Status',
  paymentStatus: 'Payment',
  date: 'Date',
  items: 'Items',
  shippingAddress: 'Shipping address',
  password: 'Password',
  passwordHint: 'At least 8 characters',
  haveAccount: 'Already have an account?',
  noAccount: 'New here?',
  profile: 'Profile',
  addresses: 'Saved addresses',
  addAddress: 'Add address',
  saveAddress: 'Save address',
  noAddresses: 'No saved addresses yet.',
  edit: 'Edit',
  cancel: 'Cancel',
  orders: 'Order history',
  noOrders: 'No orders yet.',
  order: 'Order',
  back: 'Back',
  notFound: 'Page not found.',
  error: 'Something went wrong: {message}',
  'coupon.discount_code_not_found': 'We do not know this coupon code.',
  'coupon.discount_code_inactive': 'This coupon is not active.',
  'coupon.discount_code_expired': 'This coupon has expired.',
  'coupon.discount_code_already_used': 'This coupon has already been used.',
  'coupon.discount_code_minimum_not_met': 'Your cart does not reach the minimum value for this coupon.',
  'coupon.discount_code_currency_mismatch': 'This coupon is not valid in the cart’s currency.',
  'checkout.terms_acceptance_required': 'Please accept the terms and conditions.',
  'checkout.age_verification_required': 'Please confirm your age.',
  'checkout.insufficient_stock': 'Some wine in your cart is no longer in stock in that quantity.',
  'auth.invalid_credentials': 'Email or password is wrong.',
  'auth.email_not_confirmed': 'Please confirm your email address first.',
  // taxes and shipping (issue 31)
  vatIncluded: 'incl. VAT {rate}',
  vatAdded: 'VAT {rate}',
  excise: 'Excise duty',
  taxZone: 'Delivery to {zone}',
  'policy.constant': 'Shelf prices stay the same in every country; they include the VAT of the delivery country.',
  'policy.recompute': 'Prices are net prices plus the VAT of the delivery country.',
  'policy.net': 'Prices exclude VAT; the VAT of the delivery country is added.',
  destinationRefused: 'We cannot deliver this order to that address:',
  'destination.destination_closed': 'We cannot ship alcoholic drinks to this destination.',
  'destination.volume_limit_exceeded': 'This order exceeds the volume of alcohol allowed for this destination.',
  'destination.age_requirement': 'The buyer must confirm the minimum age for this destination.',
  'checkout.destination_closed': 'We cannot ship alcoholic drinks to this destination.',
  'checkout.volume_limit_exceeded': 'This order exceeds the volume of alcohol allowed for this destination.',
  'checkout.age_requirement': 'Please confirm the minimum age for this destination.',
  'checkout.shipping_method_not_offered': 'This shipping method does not deliver to that address.',
  // promotions (issue 32)
  promotions: 'Offers',
  addMoreBottles: 'Add {count} more bottles for: {name}',
  addMoreBottle: 'Add 1 more bottle for: {name}',
  addMoreValue: 'Add {amount} more for: {name}',
  giftFor: 'Your gift with “{name}”',
  addGift: 'Add the gift',
  giftAdded: 'The gift is in your cart.',
  lowestPrice30: 'Lowest price in the last 30 days: {price}',
  regularPrice: 'Regular price',
  // gift cards, store credit and returns (issue 33)
  giftCard: 'Gift card code',
  applyGiftCard: 'Redeem',
  giftCards: 'Gift cards and store credit',
  giftCardLabel: 'Gift card ••••{last}',
  storeCreditLabel: 'Store credit',
  giftCardBalance: 'balance {amount}',
  useStoreCredit: 'Use my store credit ({amount})',
  storeCredit: 'Store credit',
  noStoreCredit: 'No store credit.',
  amountDue: 'Amount due',
  paidByGiftCards: 'Your gift cards and credit pay the whole order: no payment method needed.',
  'giftcard.gift_card_not_found': 'We do not know this gift card code.',
  'giftcard.gift_card_disabled': 'This gift card is no longer valid.',
  'giftcard.gift_card_expired': 'This gift card has expired.',
  'giftcard.gift_card_empty': 'This gift card has no balance left.',
  'giftcard.gift_card_currency_mismatch': 'This gift card is in another currency than your order.',
  'giftcard.store_credit_empty': 'You have no store credit in this currency.',
  'checkout.payment_required': 'Please choose a payment method for the rest of the amount.',
  requestReturn: 'Request a return',
  returnIntro: 'Choose the bottles to send back (within the return period after delivery).',
  returnQuantity: 'Bottles to return: {title}',
  returnReason: 'Reason',
  'reason.withdrawal': 'Changed my mind',
  'reason.damaged': 'Arrived damaged',
  'reason.wrong_item': 'Wrong item',
  'reason.not_as_described': 'Not as described',
  returnNote: 'Note (optional)',
  sendReturn: 'Send return request',
  returnRequested: 'Return requested: we will be in touch with the return label. Status: {status}.',
  returnNothing: 'Choose at least one bottle to return.',
  'return.return_window_closed': 'The return period for this order has ended.',
  'return.order_cancelled': 'This order was cancelled.',
};

export type Key = keyof typeof en;


export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type Translate = (key: Key | string, vars?: Record<string, string | number>) => string;

export function translator(locale: string): Translate {
  const table: Partial<Record<string, string>> = locale === 'de' ? { ...catalogueWords.de, ...de } : {};
  return (key, vars) => {
    let text = table[key] ?? (en as Record<string, string>)[key] ?? key;
    for (const [k, v] of Object.entries(vars ?? {})) text = text.replace(`{${k}}`, String(v));
    return text;
  };
}

const numberLocale = (locale: string) => (locale === 'de' ? 'de-CH' : 'en-CH');

/** A tax rate as people read it: `8.1 %`, `19 %` (the API sends the number). */
export function formatPercent(rate: number, locale: string): string {
  return `${new Intl.NumberFormat(numberLocale(locale), { maximumFractionDigits: 2 }).format(rate)} %`;
}

/** An ISO date (YYYY-MM-DD, as in `expected_delivery_date`) in the reader's words; the input when it is not one. */
export function formatDate(iso: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(numberLocale(locale), { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(date);
}

export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(numberLocale(locale), { style: 'currency', currency }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}
