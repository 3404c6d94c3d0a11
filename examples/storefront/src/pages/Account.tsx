import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useParams } from 'wouter';
import { api, ApiError, ok } from '../api/client';
import { AddressBook, ProfileSection } from './account/AddressBook';
import { useAccountT } from '../account-i18n';
import { useLoad, useShop } from '../store';
import { ErrorNote, Field, Loading } from '../ui';
import { OrderView } from './Order';
import { ReturnRequest } from './Returns';

export function SignInPage() {
  const { t, signIn } = useShop();
  const accountT = useAccountT();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const token = ok(await api.POST('/api/2026-04-01/customer/auth/token', { body: { email, password } })).customer_access_token;
      await signIn(token.access_token);
      navigate('/account');
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="auth" onSubmit={(e) => void submit(e)}>
      <h1>{t('signIn')}</h1>
      <Field label={t('email')}>
        <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label={t('password')}>
        <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <ErrorNote error={error} prefix="auth" />
      {error instanceof ApiError && error.code === 'email_not_confirmed' && (
        <p>
          <Link href="/account/confirm-email">{accountT('confirmEmail')}</Link>
        </p>
      )}
      <button type="submit" className="primary">
        {t('signIn')}
      </button>
      <p>
        <Link href="/account/forgot-password">{accountT('forgotPassword')}</Link>
      </p>
      <p>
        {t('noAccount')} <Link href="/account/sign-up">{t('signUp')}</Link>
      </p>
    </form>
  );
}

export function SignUpPage() {
  const { t, signIn } = useShop();
  const [, navigate] = useLocation();
  const [form, setForm] = useState({ first_name: '', last_name: '', email: '', password: '' });
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      ok(await api.POST('/api/2026-04-01/customers', { body: form }));
      const token = ok(await api.POST('/api/2026-04-01/customer/auth/token', { body: { email: form.email, password: form.password } })).customer_access_token;
      await signIn(token.access_token);
      navigate('/account');
    } catch (err) {
      // a shop requiring confirmation: the account exists, the code is in the mail
      if (err instanceof ApiError && err.code === 'email_not_confirmed') navigate('/account/confirm-email');
      else setError(err);
    }
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [k]: value }));
  };
  return (
    <form className="auth" onSubmit={(e) => void submit(e)}>
      <h1>{t('signUp')}</h1>
      <div className="row">
        <Field label={t('firstName')}>
          <input name="first_name" autoComplete="given-name" value={form.first_name} onChange={set('first_name')} />
        </Field>
        <Field label={t('lastName')}>
          <input name="last_name" autoComplete="family-name" value={form.last_name} onChange={set('last_name')} />
        </Field>
      </div>
      <Field label={t('email')}>
        <input type="email" name="email" autoComplete="email" required value={form.email} onChange={set('email')} />
      </Field>
      <Field label={t('password')} hint={t('passwordHint')}>
        <input type="password" name="password" autoComplete="new-password" minLength={8} required value={form.password} onChange={set('password')} />
      </Field>
      <ErrorNote error={error} prefix="auth" />
      <button type="submit" className="primary">
        {t('signUp')}
      </button>
      <p>
        {t('haveAccount')} <Link href="/account/sign-in">{t('signIn')}</Link>
      </p>
    </form>
  );
}

export function AccountPage() {
  const { t, signedIn, signOut } = useShop();
  const profile = useLoad(async () => (signedIn ? ok(await api.GET('/api/2026-04-01/customers/me')).customer : null), [signedIn]);
  const orders = useLoad(async () => (signedIn ? ok(await api.GET('/api/2026-04-01/customers/me/orders', { params: { query: { limit: '50', include: 'currency' } } })).orders : []), [signedIn]);
  const { money } = useShop();
  if (!signedIn) return <Redirect to="/account/sign-in" />;
  if (profile.loading && !profile.data) return <Loading />;
  if (profile.error || !profile.data) return <ErrorNote error={profile.error} />;
  const p = profile.data;
  return (
    <section className="account">
      <div className="listing-head">
        <h1>{t('account')}</h1>
        <button type="button" onClick={() => void signOut()}>
          {t('signOut')}
        </button>
      </div>
      <ProfileSection profile={p} onSaved={profile.reload} />
      <StoreCredit />
      <section aria-labelledby="orders-h">
        <h2 id="orders-h">{t('orders')}</h2>
        <ErrorNote error={orders.error} />
        {orders.data && orders.data.length === 0 && <p>{t('noOrders')}</p>}
        {orders.data && orders.data.length > 0 && (
          <table data-testid="order-history">
            <thead>
              <tr>
                <th scope="col">{t('order')}</th>
                <th scope="col">{t('date')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col" className="num">
                  {t('total')}
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`/account/orders/${o.id}`}>{o.number ?? o.id.slice(0, 8)}</Link>
                  </td>
                  <td>{new Date(o.date).toLocaleDateString()}</td>
                  <td>{o.status}</td>
                  <td className="num" data-testid="order-total">
                    {o.currency ? money(o.total, o.currency) : o.total.toFixed(2)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <AddressBook billing={p.default_address} onChange={profile.reload} />
    </section>
  );
}

/** The shopper's store credit per currency (issue 33): from returns refunded as credit, claims, or the shop. */
function StoreCredit() {
  const { t, money } = useShop();
  const credit = useLoad(async () => ok(await api.GET('/api/2026-04-01/customers/me/store_credit')).store_credit, []);
  const balances = (credit.data ?? []).filter((c) => c.balance !== 0);
  return (
    <section aria-labelledby="credit-h">
      <h2 id="credit-h">{t('storeCredit')}</h2>
      <ErrorNote error={credit.error} />
      {credit.data && balances.length === 0 && <p>{t('noStoreCredit')}</p>}
      {balances.length > 0 && (
        <ul className="credit" data-testid="store-credit">
          {balances.map((c) => (
            <li key={c.currency}>{money(c.balance, c.currency)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function OrderDetailPage() {
  const { id } = useParams<{ id: string }>();
  const { t, signedIn } = useShop();
  const { data, error, loading } = useLoad(async () => ok(await api.GET('/api/2026-04-01/customers/me/orders/{id}', { params: { path: { id } } })).order, [id]);
  if (!signedIn) return <Redirect to="/account/sign-in" />;
  if (loading && !data) return <Loading />;
  if (error || !data) return <ErrorNote error={error} />;
  return (
    <section className="order">
      <Link href="/account">← {t('back')}</Link>
      <OrderView order={data} heading="h1" />
      <ReturnRequest order={data} />
    </section>
  );
}
