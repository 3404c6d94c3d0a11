// A signed-in shopper's checkout starts from the account: the email from the profile, the address from the billing
// address (else the first saved one); the shopper can pick another saved address, or type a new one, which the API
// keeps in the address book with the order. Saved addresses carry no country code the storefront can read
// (their `country_id` names a country row the storefront API does not list), so the country stays as chosen here.
import { useEffect, useRef, useState } from 'react';
import { api, ok, type Profile, type SavedAddress } from '../../api/client';
import { useAccountT } from '../../account-i18n';
import { addressLines } from '../account/AddressBook';
import type { AddressForm } from '../Checkout';

const FIELDS = ['first_name', 'last_name', 'street', 'house_number', 'zip_code', 'location', 'phone_number'] as const;
const NEW = 'new';

interface Account {
  profile: Profile;
  addresses: SavedAddress[];
}

const fill = (form: AddressForm, a: SavedAddress): AddressForm => ({ ...form, ...Object.fromEntries(FIELDS.map((k) => [k, a[k] ?? ''])) });
const same = (form: AddressForm, a: SavedAddress) => FIELDS.every((k) => (form[k] ?? '').trim() === (a[k] ?? '').trim());
const blank = (form: AddressForm) => FIELDS.every((k) => !form[k]?.trim());

/**
 * The account behind the checkout (null while anonymous or loading); prefills the form once, when it is blank:
 * the profile's email, then the billing address (else the first saved address).
 */
export function useAccountPrefill(signedIn: boolean, address: AddressForm | null, setAddress: (f: (a: AddressForm | null) => AddressForm | null) => void): Account | null {
  const [account, setAccount] = useState<Account | null>(null);
  const done = useRef(false);
  useEffect(() => {
    if (!signedIn) {
      setAccount(null);
      return;
    }
    let live = true;
    Promise.all([api.GET('/api/2026-04-01/customers/me'), api.GET('/api/2026-04-01/customers/me/addresses')]).then(
      ([p, a]) => live && setAccount({ profile: ok(p).customer, addresses: ok(a).addresses }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [signedIn]);
  useEffect(() => {
    if (!account || !address || done.current) return;
    done.current = true;
    const start = account.addresses.find((a) => a.id === account.profile.default_address.id) ?? account.addresses[0];
    setAddress((f) => {
      if (!f) return f;
      let next = f.email.trim() ? f : { ...f, email: account.profile.email ?? '' };
      if (start && blank(next)) next = fill(next, start);
      return next;
    });
  }, [account, address === null]);
  return account;
}

/**
 * The saved addresses to choose from; a new address is kept in the account by the API with the order (it saves a
 * signed-in shopper's shipping address unless the account has it), so the page only says so.
 */
export function SavedAddressChoice(props: {
  account: Account;
  address: AddressForm;
  setAddress(f: (a: AddressForm | null) => AddressForm | null): void;
}) {
  const t = useAccountT();
  const { account, address } = props;
  const chosen = account.addresses.find((a) => same(address, a));
  return (
    <div className="saved-addresses">
      {account.addresses.length > 0 && (
        <label className="field">
          <span>{t('useSavedAddress')}</span>
          <select
            name="saved_address"
            value={chosen?.id ?? NEW}
            onChange={(e) => {
              const pick = account.addresses.find((a) => a.id === e.target.value);
              props.setAddress((f) => (f ? (pick ? fill(f, pick) : { ...f, ...Object.fromEntries(FIELDS.map((k) => [k, ''])) }) : f));
            }}
          >
            {account.addresses.map((a) => (
              <option key={a.id} value={a.id}>
                {addressLines(a).join(', ') || '–'}
              </option>
            ))}
            <option value={NEW}>{t('newAddress')}</option>
          </select>
        </label>
      )}
      {!chosen && <p className="hint">{t('addressKeptWithOrder')}</p>}
    </div>
  );
}
