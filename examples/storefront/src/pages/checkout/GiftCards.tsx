import { useState, type KeyboardEvent } from 'react';
import { api, ok, type Checkout } from '../../api/client';
import { useLoad, useShop } from '../../store';
import { ErrorNote } from '../../ui';

/**
 * Gift cards (several, each removable) and a signed-in shopper's store credit, applied to the checkout (issue 33).
 * Inside the checkout's own form, so no nested <form>: Enter in the code field applies the code.
 */
export function GiftCards({ checkout, onChange }: { checkout: Checkout; onChange(checkout: Checkout): void }) {
  const { t, money, signedIn } = useShop();
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const credit = useLoad(async () => (signedIn ? ok(await api.GET('/api/2026-04-01/customers/me/store_credit')).store_credit : []), [signedIn]);
  const applied = checkout.gift_cards ?? [];
  const currency = checkout.totals.currency;
  const available = (credit.data ?? []).find((c) => c.currency === currency && c.balance > 0);
  const creditApplied = applied.some((a) => a.kind === 'store_credit');
  const token = checkout.id;

  const run = async (action: () => Promise<Checkout>) => {
    setBusy(true);
    setError(null);
    try {
      onChange(await action());
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    if (!code.trim()) return;
    const done = await run(
      async () => ok(await api.POST('/api/2026-04-01/checkouts/{token}/gift_cards', { params: { path: { token } }, body: { code: code.trim() } })).checkout,
    );
    if (done) setCode('');
  };
  const remove = (id: string) =>
    run(async () => ok(await api.DELETE('/api/2026-04-01/checkouts/{token}/gift_cards/{id}', { params: { path: { token, id } } })).checkout);
  const useCredit = () => run(async () => ok(await api.POST('/api/2026-04-01/checkouts/{token}/store_credit', { params: { path: { token } } })).checkout);
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    void apply();
  };

  return (
    <fieldset className="options gift-cards" aria-busy={busy}>
      <legend>{t('giftCards')}</legend>
      {applied.length > 0 && (
        <ul className="applied" data-testid="applied-gift-cards">
          {applied.map((a) => (
            <li key={a.id}>
              <span>
                {a.kind === 'store_credit' ? t('storeCreditLabel') : t('giftCardLabel', { last: a.last_characters ?? '' })}{' '}
                <small>({t('giftCardBalance', { amount: money(a.balance, a.currency) })})</small>
              </span>
              <span>−{money(a.amount, currency)}</span>
              <button type="button" className="link" onClick={() => void remove(a.id)} disabled={busy}>
                {t('remove')}
                <span className="sr-only"> {a.kind === 'store_credit' ? t('storeCreditLabel') : t('giftCardLabel', { last: a.last_characters ?? '' })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor="gift-card">{t('giftCard')}</label>
      <div className="inline">
        <input id="gift-card" name="gift_card" value={code} onChange={(e) => setCode(e.target.value)} onKeyDown={onKey} autoComplete="off" spellCheck={false} />
        <button type="button" onClick={() => void apply()} disabled={busy || !code.trim()}>
          {t('applyGiftCard')}
        </button>
      </div>
      {available && !creditApplied && (
        <p>
          <button type="button" onClick={() => void useCredit()} disabled={busy}>
            {t('useStoreCredit', { amount: money(available.balance, available.currency) })}
          </button>
        </p>
      )}
      <ErrorNote error={error} prefix="giftcard" />
    </fieldset>
  );
}
