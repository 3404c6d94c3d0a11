import { lazy, Suspense } from 'react';
import { Link, Route, Router, Switch, useSearch } from 'wouter';
import { LANGUAGES } from './i18n';
import { CartPage } from './pages/Cart';
import { CataloguePage } from './pages/Catalogue';
import { HomePage } from './pages/Home';
import { ProductPage } from './pages/Product';
import { ShopProvider, useShop } from './store';
import { Loading } from './ui';
import { usePageChange } from './navigation';
import { SearchBox } from './search-box';
import { CategoryMenu } from './CategoryMenu';
import { CartDrawer } from './CartDrawer';
import { WishlistLink } from './wishlist';
import { Later } from './stepwise';

// Checkout, confirmation and account pages load on first use: the listing route's JavaScript stays within budget
const CheckoutPage = lazy(() => import('./pages/Checkout').then((m) => ({ default: m.CheckoutPage })));
const OrderPage = lazy(() => import('./pages/Order').then((m) => ({ default: m.OrderPage })));
const SignInPage = lazy(() => import('./pages/Account').then((m) => ({ default: m.SignInPage })));
const SignUpPage = lazy(() => import('./pages/Account').then((m) => ({ default: m.SignUpPage })));
const AccountPage = lazy(() => import('./pages/Account').then((m) => ({ default: m.AccountPage })));
const OrderDetailPage = lazy(() => import('./pages/Account').then((m) => ({ default: m.OrderDetailPage })));
// the wishlist page, password reset and email confirmation (issue 37, account side)
const WishlistPage = lazy(() => import('./pages/Wishlist').then((m) => ({ default: m.WishlistPage })));
const ForgotPasswordPage = lazy(() => import('./pages/account/Recovery').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./pages/account/Recovery').then((m) => ({ default: m.ResetPasswordPage })));
const ConfirmEmailPage = lazy(() => import('./pages/account/Recovery').then((m) => ({ default: m.ConfirmEmailPage })));

/** The build's base path without the trailing slash (`/storefront-demo`). */
const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

export function App() {
  return (
    <Router base={BASE}>
      <ShopProvider>
        <Layout />
      </ShopProvider>
    </Router>
  );
}

function Layout() {
  const { t } = useShop();
  usePageChange();
  return (
    <>
      <a className="skip" href="#main">
        {t('skip')}
      </a>
      <Later>
        <Header />
      </Later>
      <main id="main" tabIndex={-1}>
        <Later>
          <Suspense fallback={<Loading />}>
            <Switch>
              <Route path="/" component={HomeOrListing} />
              <Route path="/wines" component={CataloguePage} />
              <Route path="/collections/:id" component={CataloguePage} />
              <Route path="/categories/:slug" component={CataloguePage} />
              <Route path="/wines/:handle" component={ProductPage} />
              <Route path="/products/:id" component={ProductPage} />
              <Route path="/cart" component={CartPage} />
              <Route path="/checkout" component={CheckoutPage} />
              <Route path="/order" component={OrderPage} />
              <Route path="/account/sign-in" component={SignInPage} />
              <Route path="/account/sign-up" component={SignUpPage} />
              <Route path="/account/orders/:id" component={OrderDetailPage} />
              <Route path="/account/forgot-password" component={ForgotPasswordPage} />
              <Route path="/account/reset-password" component={ResetPasswordPage} />
              <Route path="/account/confirm-email" component={ConfirmEmailPage} />
              <Route path="/wishlist" component={WishlistPage} />
              <Route path="/account" component={AccountPage} />
              <Route>
                <p className="notice">{t('notFound')}</p>
              </Route>
            </Switch>
          </Suspense>
        </Later>
      </main>
      <Later>
        <CartDrawer />
      </Later>
      <footer className="footer">
        <p>
          Vinoshop reference storefront · storefront and customer APIs only · <a href="/api/docs">API docs</a>
        </p>
      </footer>
    </>
  );
}

/**
 * `/` is the home page; with a query string it is the listing of all wines, as it was before the home page existed
 * (old filter links and the search box's `/?q=` keep working). `/wines` is that listing's own URL.
 */
function HomeOrListing() {
  return useSearch() ? <CataloguePage /> : <HomePage />;
}

function Header() {
  const { t, locale, setLocale, cart, currencies, setCurrency, signedIn } = useShop();
  return (
    <header className="header">
      <div className="header-row">
        <Link href="/" className="brand">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
            <path d="M7 2h10l-.6 6.2A4.5 4.5 0 0 1 13 12.3V19h3v2H8v-2h3v-6.7a4.5 4.5 0 0 1-3.4-4.1z" fill="currentColor" />
          </svg>{' '}
          {t('shopName')}
        </Link>
        <Later>
          <SearchBox />
        </Later>
        <nav className="tools" aria-label={t('account')}>
          <label className="compact">
            <span className="sr-only">{t('language')}</span>
            <select aria-label={t('language')} value={locale} onChange={(e) => setLocale(e.target.value)}>
              {LANGUAGES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.code.toUpperCase()}
                </option>
              ))}
            </select>
          </label>
          {currencies.length > 1 && cart && (
            <label className="compact">
              <span className="sr-only">{t('currency')}</span>
              <select aria-label={t('currency')} value={cart.currency} onChange={(e) => void setCurrency(e.target.value)}>
                {currencies.map((c) => (
                  <option key={c.id} value={c.code}>
                    {c.code}
                  </option>
                ))}
              </select>
            </label>
          )}
          <WishlistLink />
          <Link href={signedIn ? '/account' : '/account/sign-in'}>{signedIn ? t('account') : t('signIn')}</Link>
          <Link href="/cart" className="cart-link">
            {t('cart')}{' '}
            <span className="badge" aria-label={`${cart?.item_count ?? 0} ${t('items')}`}>
              {cart?.item_count ?? 0}
            </span>
          </Link>
        </nav>
      </div>
      <Later>
        <CategoryMenu />
      </Later>
    </header>
  );
}
