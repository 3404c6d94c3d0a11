import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { api, ApiError, ok, type Checkout, type CheckoutAddress, type Schemas } from '../api/client';
import { formatDate } from '../i18n';
import { useShop } from '../store';
import { ErrorNote, Field, Loading } from '../ui';
import { GiftCards } from './checkout/GiftCards';
import { CheckoutTotals, DestinationVerdict } from './checkout/Summary';
import { SavedAddressChoice, useAccountPrefill } from './checkout/SavedAddresses';

const ADDRESS_FIELDS = ['email', 'first_name', 'last_name', 'street', 'house_number', 'zip_code', 'location', 'phone_number'] as const;
export type AddressForm = Record<(typeof ADDRESS_FIELDS)[number] | 'country_code', string>;

const fromCheckout = (a: CheckoutAddress): AddressForm => ({
  email: a.email ?? '',
  first_name: a.first_name ?? '',
  last_name: a.last_name ?? '',
  street: a.street ?? '',
  house_number: a.house_number ?? '',
  zip_code: a.zip_code ?? '',
  location: a.location ?? '',
  phone_number: a.phone_number ?? '',
  country_code: a.country_code ?? '',
});
const toBody = (f: AddressForm): CheckoutAddress => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim() || null]));

/** Where the buyer lands after placing the order (the payment provider appends order_id and hash). */
const returnUrl = () => `${location.origin}${import.meta.env.BASE_URL}order`;

export function CheckoutPage() {
  const { t, money, locale, signedIn, refreshCart } = useShop();
  const [, navigate] = useLocation();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const [address, setAddress] = useState<AddressForm | null>(null);
  const [paymentTypeId, setPaymentTypeId] = useState<string>('');
  const [shippingId, setShippingId] = useState<string>('');
  const [terms, setTerms] = useState(false);
  const [age, setAge] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // a signed-in shopper: prefilled from the account, saved addresses to pick (a new one is kept by the API with the order)
  const account = useAccountPrefill(signedIn, address, setAddress);

  useEffect(() => {
    // a checkout is a snapshot of the cart: start one from the cart as it is now
    api.POST('/api/2026-04-01/checkouts').then(
      (r) => {
        try {
          const c = ok(r).checkout;
          setCheckout(c);
          setAddress(fromCheckout(c.shipping_address));
          setPaymentTypeId(c.selected_payment_type_id ?? '');
          setShippingId(c.selected_shipping_method_id ?? '');
        } catch (err) {
          setError(err);
        }
      },
      (err: unknown) => setError(err),
    );
  }, []);

  if (error instanceof ApiError && !checkout) {
    return (
      <section className="checkout">
        <h1>{t('checkout')}</h1>
        <p className="notice">{error.status === 422 ? t('cartEmpty') : error.message}</p>
        <Link href="/">{t('continueShopping')}</Link>
      </section>
    );
  }
  if (!checkout || !address) return <Loading />;

  const update = async (body: Schemas['UpdateCheckoutDto']) => {
    setBusy(true);
    setError(null);
    try {
      const c = ok(await api.PUT('/api/2026-04-01/checkouts/{token}', { params: { path: { token: checkout.id } }, body })).checkout;
      setCheckout(c);
      // a method of another country is gone with the country change
      if (!c.shipping_options.some((o) => o.id === (body.shipping_method_id ?? shippingId))) setShippingId(c.selected_shipping_method_id ?? '');
      return c;
    } catch (err) {
      setError(err);
      return null;
    } finally {
      setBusy(false);
    }
  };
  // from the latest state: two quick inputs in a row (autofill, a fast typist) must not drop the first
  const set = (key: keyof AddressForm, value: string) => setAddress((a) => (a ? { ...a, [key]: value } : a));
  const changeCountry = (code: string) => {
    const next = { ...address, country_code: code };
    setAddress(next);
    void update({ shipping_address: toBody(next), billing_same_as_shipping: true });
  };

  const place = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const updated = await update({
      shipping_address: toBody(address),
      billing_same_as_shipping: true,
      shipping_method_id: shippingId || null,
      payment_type_id: paidInFull ? null : paymentTypeId || null,
    });
    if (!updated) return;
    // the buyer places the order at the total on screen: one that changed with this update (an offer ended, a
    // postcode in another zone) is shown first, and the next click places it
    if (updated.totals.total !== checkout.totals.total) {
      setError(new ApiError(409, 'the total changed', 'total_changed'));
      return;
    }
    // gift cards and store credit may cover everything (amount_due 0): then no payment type and no provider
    const payment = updated.amount_due === 0 ? null : paymentTypeId || null;
    setBusy(true);
    try {
      const result = ok(
        await api.POST('/api/2026-04-01/checkouts/{token}/complete', {
          params: { path: { token: checkout.id } },
          body: { payment_type_id: payment, accepted_terms: terms, age_confirmed: age, return_url: returnUrl() },
        }),
      ).checkout;
      await refreshCart().catch(() => undefined);
      if (result.payment_url) {
        location.assign(result.payment_url);
        return;
      }
      navigate(`/order?order_id=${encodeURIComponent(result.order_id)}&hash=${encodeURIComponent(result.hash)}`);
    } catch (err) {
      // an offer shown here ran out or ended meanwhile: the API refuses to charge another total; show the new one
      if (err instanceof ApiError && (err.code === 'promotion_usage_limit_reached' || err.code === 'promotion_unavailable')) {
        const reread = await api.GET('/api/2026-04-01/checkouts/{token}', { params: { path: { token: checkout.id } } }).catch(() => null);
        if (reread?.data) setCheckout(reread.data.checkout);
      }
      setError(err);
      setBusy(false);
    }
  };

  const totals = checkout.totals;
  const paidInFull = checkout.amount_due === 0;
  const refused = checkout.compliance.destination?.allowed === false;
  const { terms: termsRule, age_verification: ageRule } = checkout.compliance;
  if (!checkout.guest_checkout_enabled && !signedIn) {
    return (
      <section className="checkout">
        <h1>{t('checkout')}</h1>
        <p className="notice">{t('guestDisabled')}</p>
        <Link href="/account/sign-in">{t('signIn')}</Link>
      </section>
    );
  }

  return (
    <form className="checkout" onSubmit={(e) => void place(e)} aria-busy={busy}>
      <h1>{t('checkout')}</h1>
      <div className="checkout-layout">
        <div>
          <fieldset className="address">
            <legend>{t('address')}</legend>
            {account && <SavedAddressChoice account={account} address={address} setAddress={setAddress}/>}
            <Field label={t('email')}>
              <input type="email" autoComplete="email" required value={address.email} onChange={(e) => set('email', e.target.value)} />
            </Field>
            <div className="row">
              <Field label={t('firstName')}>
                <input autoComplete="given-name" required value={address.first_name} onChange={(e) => set('first_name', e.target.value)} />
              </Field>
              <Field label={t('lastName')}>
                <input autoComplete="family-name" required value={address.last_name} onChange={(e) => set('last_name', e.target.value)} />
              </Field>
            </div>
            <div className="row">
              <Field label={t('street')}>
                <input autoComplete="address-line1" required value={address.street} onChange={(e) => set('street', e.target.value)} />
              </Field>
              <Field label={t('houseNumber')}>
                <input className="short" value={address.house_number} onChange={(e) => set('house_number', e.target.value)} />
              </Field>
            </div>
            <div className="row">
              <Field label={t('zip')}>
                <input className="short" autoComplete="postal-code" required value={address.zip_code} onChange={(e) => set('zip_code', e.target.value)} />
              </Field>
              <Field label={t('city')}>
                <input autoComplete="address-level2" required value={address.location} onChange={(e) => set('location', e.target.value)} />
              </Field>
            </div>
            <Field label={t('country')}>
              <select autoComplete="country" required value={address.country_code} onChange={(e) => changeCountry(e.target.value)}>
                <option value="">–</option>
                {checkout.available_countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('phone')}>
              <input type="tel" autoComplete="tel" value={address.phone_number} onChange={(e) => set('phone_number', e.target.value)} />
            </Field>
          </fieldset>
          <fieldset className="options">
            <legend>{t('shippingMethod')}</legend>
            {checkout.shipping_options.length === 0 && <p>{t('chooseCountry')}</p>}
            {checkout.shipping_options.map((o) => (
              <label key={o.id} className="option">
                <input
                  type="radio"
                  name="shipping"
                  required
                  value={o.id}
                  checked={shippingId === o.id}
                  onChange={() => {
                    setShippingId(o.id);
                    void update({ shipping_method_id: o.id });
                  }}
                />
                <span>{o.name}</span>
                <span>{Number(o.price) === 0 ? t('free') : money(Number(o.price), totals.currency)}</span>
                {o.expected_delivery_date && <small>{t('delivery', { date: formatDate(o.expected_delivery_date, locale) })}</small>}
              </label>
            ))}
          </fieldset>
          <GiftCards checkout={checkout} onChange={setCheckout} />
          {paidInFull ? (
            <p className="notice" data-testid="paid-by-gift-cards">
              {t('paidByGiftCards')}
            </p>
          ) : (
            <fieldset className="options">
              <legend>{t('paymentType')}</legend>
              {checkout.payment_types.map((p) => (
                <label key={p.id} className="option">
                  <input type="radio" name="payment" required value={p.id} checked={paymentTypeId === p.id} onChange={() => setPaymentTypeId(p.id)} />
                  <span>{p.name}</span>
                </label>
              ))}
            </fieldset>
          )}
        </div>
        <aside className="summary-box" aria-label={t('total')}>
          <CheckoutTotals checkout={checkout} />
          <DestinationVerdict checkout={checkout} />
          {termsRule.required && (
            <label className="check">
              <input type="checkbox" name="terms" checked={terms} onChange={(e) => setTerms(e.target.checked)} />
              <span>
                {t('terms')}
                {termsRule.terms_url && (
                  <>
                    {' '}
                    (<a href={termsRule.terms_url} target="_blank" rel="noopener">
                      {t('termsLink')}
                    </a>
                    {termsRule.privacy_url && (
                      <>
                        ,{' '}
                        <a href={termsRule.privacy_url} target="_blank" rel="noopener">
                          {t('privacyLink')}
                        </a>
                      </>
                    )}
                    )
                  </>
                )}
              </span>
            </label>
          )}
          {ageRule.required && (
            <label className="check">
              <input type="checkbox" name="age" checked={age} onChange={(e) => setAge(e.target.checked)} />
              <span>{t('age', { age: ageRule.min_age })}</span>
            </label>
          )}
          <ErrorNote error={error} prefix="checkout" />
          <button type="submit" className="primary wide" disabled={busy || refused}>
            {busy ? t('placing') : t('placeOrder')}
          </button>
        </aside>
      </div>
    </form>
  );
}
