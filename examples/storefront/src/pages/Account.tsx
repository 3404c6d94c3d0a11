import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useParams } from 'wouter';
import { api, ok, type AddressBody, type SavedAddress } from '../api/client';
import { useLoad, useShop } from '../store';
import { ErrorNote, Field, Loading } from '../ui';
import { OrderView } from './Order';
import { ReturnRequest } from './Returns';

export function SignInPage() {
  const { t, signIn } = useShop();
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
      <button type="submit" className="primary">
        {t('signIn')}
      </button>
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
      setError(err);
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
  const name = [p.default_address.first_name, p.default_address.last_name].filter(Boolean).join(' ');
  return (
    <section className="account">
      <div className="listing-head">
        <h1>{t('account')}</h1>
        <button type="button" onClick={() => void signOut()}>
          {t('signOut')}
        </button>
      </div>
      <section aria-labelledby="profile-h">
        <h2 id="profile-h">{t('profile')}</h2>
        <dl className="meta">
          {name && (
            <>
              <dt>{t('name')}</dt>
              <dd>{name}</dd>
            </>
          )}
          <dt>{t('email')}</dt>
          <dd data-testid="profile-email">{p.email}</dd>
        </dl>
      </section>
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
      <Addresses />
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

const EMPTY: AddressBody = { first_name: '', last_name: '', street: '', house_number: '', zip_code: '', location: '', phone_number: '' };
const ADDRESS_FIELDS: Array<[keyof AddressBody, string, string]> = [
  ['first_name', 'firstName', 'given-name'],
  ['last_name', 'lastName', 'family-name'],
  ['street', 'street', 'address-line1'],
  ['house_number', 'houseNumber', 'off'],
  ['zip_code', 'zip', 'postal-code'],
  ['location', 'city', 'address-level2'],
  ['phone_number', 'phone', 'tel'],
];

function Addresses() {
  const { t } = useShop();
  const list = useLoad(async () => ok(await api.GET('/api/2026-04-01/customers/me/addresses')).addresses, []);
  const [editing, setEditing] = useState<SavedAddress | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const remove = async (id: string) => {
    setError(null);
    try {
      ok(await api.DELETE('/api/2026-04-01/customers/me/addresses/{id}', { params: { path: { id } } }));
    } catch (err) {
      setError(err);
    }
    list.reload();
  };
  return (
    <section aria-labelledby="addresses-h">
      <h2 id="addresses-h">{t('addresses')}</h2>
      <ErrorNote error={list.error ?? error} />
      {list.data && list.data.length === 0 && <p>{t('noAddresses')}</p>}
      <ul className="addresses">
        {(list.data ?? []).map((a) => (
          <li key={a.id}>
            <address>
              {[a.first_name, a.last_name].filter(Boolean).join(' ')}
              <br />
              {[a.street, a.house_number].filter(Boolean).join(' ')}
              <br />
              {[a.zip_code, a.location].filter(Boolean).join(' ')}
            </address>
            <button type="button" className="link" onClick={() => setEditing(a)}>
              {t('edit')}
            </button>
            <button type="button" className="link" onClick={() => void remove(a.id)}>
              {t('remove')}
            </button>
          </li>
        ))}
      </ul>
      {editing ? (
        <AddressForm
          key={editing === 'new' ? 'new' : editing.id}
          address={editing === 'new' ? null : editing}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : (
        <button type="button" onClick={() => setEditing('new')}>
          {t('addAddress')}
        </button>
      )}
    </section>
  );
}

function AddressForm({ address, onDone }: { address: SavedAddress | null; onDone(): void }) {
  const { t } = useShop();
  const [form, setForm] = useState<AddressBody>(address ?? EMPTY);
  const [error, setError] = useState<unknown>(null);
  // another address is a fresh form (keyed by its id): no effect resetting the state after the first input
  // from the latest state: two quick inputs in a row (autofill, a fast typist) must not drop the first
  const change = (key: keyof AddressBody, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const body = Object.fromEntries(ADDRESS_FIELDS.map(([k]) => [k, (form[k] ?? '').trim() || null])) as AddressBody;
    try {
      if (address) ok(await api.PUT('/api/2026-04-01/customers/me/addresses/{id}', { params: { path: { id: address.id } }, body }));
      else ok(await api.POST('/api/2026-04-01/customers/me/addresses', { body }));
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="address-form" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>{address ? t('edit') : t('addAddress')}</legend>
        <div className="row wrap">
          {ADDRESS_FIELDS.map(([key, label, auto]) => (
            <Field key={key} label={t(label)}>
              <input name={key} autoComplete={auto} value={form[key] ?? ''} onChange={(e) => change(key, e.target.value)} />
            </Field>
          ))}
        </div>
        <ErrorNote error={error} />
        <button type="submit" className="primary">
          {t('saveAddress')}
        </button>{' '}
        <button type="button" onClick={onDone}>
          {t('cancel')}
        </button>
      </fieldset>
    </form>
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
