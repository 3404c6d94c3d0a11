import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, ok, session, SIGNED_OUT_EVENT, type Cart, type Currency } from './api/client';
import { formatMoney, translator, type Translate } from './i18n';

interface Shop {
  locale: string;
  setLocale(locale: string): void;
  t: Translate;
  money(amount: number, currency: string): string;
  cart: Cart | null;
  setCart(cart: Cart | null): void;
  refreshCart(): Promise<void>;
  currencies: Currency[];
  setCurrency(code: string): Promise<void>;
  signedIn: boolean;
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
  /** Bumped when the language or currency changes, so pages reload their data. */
  revision: number;
}

const ShopContext = createContext<Shop | null>(null);

export function useShop(): Shop {
  const shop = useContext(ShopContext);
  if (!shop) throw new Error('useShop outside ShopProvider');
  return shop;
}

export function ShopProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState(session.locale);
  const [cart, setCartState] = useState<Cart | null>(null);
  // each cart written (an add's answer, a currency change) counts: a read that started before it is older than it
  const cartWrites = useRef(0);
  const setCart = useCallback((next: Cart | null) => {
    cartWrites.current += 1;
    setCartState(next);
  }, []);
  const [currencies, setCurrencies] = useState<Currency[]>([]);
  const [signedIn, setSignedIn] = useState(Boolean(session.customerToken));
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    const signedOut = () => setSignedIn(false);
    addEventListener(SIGNED_OUT_EVENT, signedOut);
    return () => removeEventListener(SIGNED_OUT_EVENT, signedOut);
  }, []);

  const refreshCart = useCallback(async () => {
    const before = cartWrites.current;
    const read = ok(await api.GET('/api/2026-04-01/cart')).cart;
    // the page's first read can answer after "Add to cart" did (a slow network): it must not undo the add
    if (cartWrites.current === before) setCart(read);
  }, [setCart]);

  useEffect(() => {
    document.documentElement.lang = locale;
    void refreshCart().catch(() => undefined);
    void api.GET('/api/2026-04-01/currencies').then((r) => r.data && setCurrencies(r.data.currencies));
  }, [locale, refreshCart]);

  const value = useMemo<Shop>(() => {
    const t = translator(locale);
    return {
      locale,
      t,
      money: (amount, currency) => formatMoney(amount, currency, locale),
      setLocale(next) {
        session.setLocale(next);
        setLocaleState(next);
        setRevision((r) => r + 1);
      },
      cart,
      setCart,
      refreshCart,
      currencies,
      async setCurrency(code) {
        setCart(ok(await api.PUT('/api/2026-04-01/cart/currency', { body: { code } })).cart);
        setRevision((r) => r + 1);
      },
      signedIn,
      async signIn(token) {
        session.setCustomerToken(token);
        setSignedIn(true);
        await refreshCart();
      },
      async signOut() {
        await api.DELETE('/api/2026-04-01/customer/auth/token').catch(() => undefined);
        session.setCustomerToken(null);
        setSignedIn(false);
        await refreshCart().catch(() => undefined);
      },
      revision,
    };
  }, [locale, cart, currencies, signedIn, revision, refreshCart, setCart]);

  return <ShopContext.Provider value={value}>{children}</ShopContext.Provider>;
}

/** Loads data for a page; reloads when `deps` or the language/currency change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: Error | null; loading: boolean; reload(): void } {
  const { revision } = useShop();
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: Error) => live && setState({ data: null, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, revision, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}
