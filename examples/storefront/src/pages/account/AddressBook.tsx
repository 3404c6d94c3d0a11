// The account's profile and address book. The API's profile is the login email and the billing address
// (`default_address`): editing the profile edits that address's names and phone (or creates it, the first address
// becoming the billing address). Saved addresses are listed, added, edited and removed; the billing one is marked.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, ok, type AddressBody, type Profile, type SavedAddress } from '../../api/client';
import { useAccountT } from '../../account-i18n';
import { useLoad } from '../../store';
import { ErrorNote, Field } from '../../ui';
import './account.css';

const EMPTY: AddressBody = { first_name: '', last_name: '', company: '', street: '', house_number: '', zip_code: '', location: '', phone_number: '' };
export const ADDRESS_FIELDS: Array<[keyof AddressBody, string, string]> = [
  ['first_name', 'firstName', 'given-name'],
  ['last_name', 'lastName', 'family-name'],
  ['company', 'company', 'organization'],
  ['street', 'street', 'address-line1'],
  ['house_number', 'houseNumber', 'off'],
  ['zip_code', 'zip', 'postal-code'],
  ['location', 'city', 'address-level2'],
  ['phone_number', 'phone', 'tel'],
];
const PROFILE_FIELDS = ADDRESS_FIELDS.filter(([k]) => k === 'first_name' || k === 'last_name' || k === 'company' || k === 'phone_number');

const trimmed = (form: AddressBody, fields: typeof ADDRESS_FIELDS) =>
  Object.fromEntries(fields.map(([k]) => [k, String(form[k] ?? '').trim() || null])) as AddressBody;

/** One saved address as lines of text. */
export function addressLines(a: SavedAddress): string[] {
  return [
    [a.first_name, a.last_name].filter(Boolean).join(' '),
    a.company ?? '',
    [a.street, a.house_number].filter(Boolean).join(' '),
    [a.zip_code, a.location].filter(Boolean).join(' '),
  ].filter(Boolean);
}

/** The profile: email (with its confirmation state) and the billing address's names, editable in place. */
export function ProfileSection({ profile, onSaved }: { profile: Profile; onSaved(): void }) {
  const t = useAccountT();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const billing = profile.default_address;
  const hasBilling = billing.id !== profile.id;
  const name = [billing.first_name, billing.last_name].filter(Boolean).join(' ');
  return (
    <section aria-labelledby="profile-h">
      <h2 id="profile-h">{t('profile')}</h2>
      <dl className="meta">
        {name && (
          <>
            <dt>{t('name')}</dt>
            <dd data-testid="profile-name">{name}</dd>
          </>
        )}
        {billing.phone_number && (
          <>
            <dt>{t('phone')}</dt>
            <dd>{billing.phone_number}</dd>
          </>
        )}
        <dt>{t('email')}</dt>
        <dd>
          <span data-testid="profile-email">{profile.email}</span>{' '}
          {profile.is_email_confirmed ? (
            <small>({t('emailConfirmedShort')})</small>
          ) : (
            <small data-testid="email-unconfirmed">
              {t('emailNotConfirmed')} <Link href="/account/confirm-email">{t('confirmEmail')}</Link>
            </small>
          )}
        </dd>
      </dl>
      {saved && !editing && <p role="status">{t('profileSaved')}</p>}
      {editing ? (
        <AddressForm
          legend={t('editProfile')}
          submitLabel={t('saveProfile')}
          fields={PROFILE_FIELDS}
          initial={hasBilling ? billing : EMPTY}
          save={async (body) => {
            if (hasBilling) ok(await api.PUT('/api/2026-04-01/customers/me/addresses/{id}', { params: { path: { id: billing.id } }, body }));
            else ok(await api.POST('/api/2026-04-01/customers/me/addresses', { body }));
          }}
          onDone={(changed) => {
            setEditing(false);
            setSaved(changed);
            if (changed) onSaved();
          }}
        />
      ) : (
        <button type="button" onClick={() => setEditing(true)}>
          {t('editProfile')}
        </button>
      )}
    </section>
  );
}

/** The address book: every saved address, the billing one marked, each editable and removable. */
export function AddressBook({ billing, onChange }: { billing: SavedAddress; onChange(): void }) {
  const t = useAccountT();
  const billingId = billing.id;
  // read again when the profile changed the billing address
  const list = useLoad(async () => ok(await api.GET('/api/2026-04-01/customers/me/addresses')).addresses, [JSON.stringify(billing)]);
  const [editing, setEditing] = useState<SavedAddress | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const remove = async (a: SavedAddress) => {
    setError(null);
    try {
      // 204: no body to unwrap
      const r = await api.DELETE('/api/2026-04-01/customers/me/addresses/{id}', { params: { path: { id: a.id } } });
      if (!r.response.ok) ok(r);
      setStatus(t('addressRemoved'));
    } catch (err) {
      setError(err);
    }
    list.reload();
    if (a.id === billingId) onChange();
  };
  return (
    <section aria-labelledby="addresses-h">
      <h2 id="addresses-h">{t('addresses')}</h2>
      <ErrorNote error={list.error ?? error} />
      <p role="status" className="sr-status">
        {status}
      </p>
      {list.data && list.data.length === 0 && <p>{t('noAddresses')}</p>}
      <ul className="addresses" data-testid="address-book">
        {(list.data ?? []).map((a) => {
          const label = addressLines(a).join(', ');
          return (
            <li key={a.id} data-default={a.id === billingId || undefined}>
              {a.id === billingId && <strong className="tag">{t('defaultAddress')}</strong>}
              <address>
                {addressLines(a).map((line, i) => (
                  <span key={i}>
                    {line}
                    <br />
                  </span>
                ))}
              </address>
              <button type="button" className="link" aria-label={`${t('edit')}: ${label}`} onClick={() => setEditing(a)}>
                {t('edit')}
              </button>
              <button type="button" className="link" aria-label={`${t('remove')}: ${label}`} onClick={() => void remove(a)}>
                {t('remove')}
              </button>
            </li>
          );
        })}
      </ul>
      {editing ? (
        <AddressForm
          key={editing === 'new' ? 'new' : editing.id}
          legend={editing === 'new' ? t('addAddress') : t('edit')}
          submitLabel={t('saveAddress')}
          fields={ADDRESS_FIELDS}
          initial={editing === 'new' ? EMPTY : editing}
          save={async (body) => {
            if (editing !== 'new') ok(await api.PUT('/api/2026-04-01/customers/me/addresses/{id}', { params: { path: { id: editing.id } }, body }));
            else ok(await api.POST('/api/2026-04-01/customers/me/addresses', { body }));
          }}
          onDone={(changed) => {
            setEditing(null);
            if (!changed) return;
            setStatus(t('addressSaved'));
            list.reload();
            onChange();
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

function AddressForm(props: {
  legend: string;
  submitLabel: string;
  fields: typeof ADDRESS_FIELDS;
  initial: AddressBody;
  save(body: AddressBody): Promise<void>;
  onDone(changed: boolean): void;
}) {
  const t = useAccountT();
  const [form, setForm] = useState<AddressBody>(props.initial);
  const [error, setError] = useState<unknown>(null);
  // from the latest state: two quick inputs in a row (autofill, a fast typist) must not drop the first
  const change = (key: keyof AddressBody, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await props.save(trimmed(form, props.fields));
      props.onDone(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form className="address-form" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>{props.legend}</legend>
        <div className="row wrap">
          {props.fields.map(([key, label, auto]) => (
            <Field key={key} label={t(label)}>
              <input name={key} autoComplete={auto} value={String(form[key] ?? '')} onChange={(e) => change(key, e.target.value)} />
            </Field>
          ))}
        </div>
        <ErrorNote error={error} />
        <button type="submit" className="primary">
          {props.submitLabel}
        </button>{' '}
        <button type="button" onClick={() => props.onDone(false)}>
          {t('cancel')}
        </button>
      </fieldset>
    </form>
  );
}
