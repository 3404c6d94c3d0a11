import { useState, type FormEvent } from 'react';
import { api, ok, type Order, type Schemas } from '../api/client';
import { useShop } from '../store';
import { ErrorNote } from '../ui';

const REASONS = ['withdrawal', 'damaged', 'wrong_item', 'not_as_described'] as const;

/** Only a shipped order can go back; the API decides the return window (`return_window_closed`). */
export const returnable = (order: Order) => !order.cancelled_at && order.fulfillment_status !== 'unfulfilled';

/**
 * A signed-in shopper asks to send bottles back (issue 33, `POST /customer/orders/{id}/returns`): a quantity and a
 * reason per line. The shop's window (`return_window_days` after the last shipment) is the API's rule; its refusal
 * is shown in words.
 */
export function ReturnRequest({ order }: { order: Order }) {
  const { t } = useShop();
  const [open, setOpen] = useState(false);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [empty, setEmpty] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!returnable(order)) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const lines = order.line_items
      .filter((l) => (quantities[l.id] ?? 0) > 0)
      .map((l) => ({ line_id: l.id, quantity: quantities[l.id], reason: reasons[l.id] ?? REASONS[0] }));
    setEmpty(lines.length === 0);
    if (lines.length === 0) return;
    setBusy(true);
    try {
      // the generated type of `lines` is loose (string[]): the body is the documented [{line_id, quantity, reason}]
      const body = { lines, note: note.trim() || null } as unknown as Schemas['CreateReturnDto'];
      const created = ok(await api.POST('/api/2026-04-01/customer/orders/{id}/returns', { params: { path: { id: order.id } }, body })).return;
      setDone(t('returnRequested', { status: created.status }));
      setOpen(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="returns" aria-labelledby="return-h">
      <h2 id="return-h">{t('requestReturn')}</h2>
      {done && (
        <p role="status" data-testid="return-requested">
          {done}
        </p>
      )}
      {!open && !done && (
        <button type="button" onClick={() => setOpen(true)}>
          {t('requestReturn')}
        </button>
      )}
      {open && (
        <form onSubmit={(e) => void submit(e)} aria-busy={busy}>
          <p>{t('returnIntro')}</p>
          <ul className="return-lines">
            {order.line_items.map((l) => (
              <li key={l.id}>
                <label className="field">
                  <span>{t('returnQuantity', { title: l.title ?? l.sku ?? '' })}</span>
                  <input
                    type="number"
                    min={0}
                    max={l.quantity}
                    step={1}
                    inputMode="numeric"
                    value={quantities[l.id] ?? 0}
                    onChange={(e) => setQuantities((q) => ({ ...q, [l.id]: Math.max(0, Math.min(l.quantity, Number(e.target.value) || 0)) }))}
                  />
                </label>
                <label className="field">
                  <span>{t('returnReason')}</span>
                  <select value={reasons[l.id] ?? REASONS[0]} onChange={(e) => setReasons((r) => ({ ...r, [l.id]: e.target.value }))}>
                    {REASONS.map((r) => (
                      <option key={r} value={r}>
                        {t(`reason.${r}`)}
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
          </ul>
          <label className="field">
            <span>{t('returnNote')}</span>
            <textarea value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={busy}>
            {t('sendReturn')}
          </button>{' '}
          <button type="button" onClick={() => setOpen(false)}>
            {t('cancel')}
          </button>
        </form>
      )}
      {empty && open && (
        <p className="error" role="alert">
          {t('returnNothing')}
        </p>
      )}
      <ErrorNote error={error} prefix="return" />
    </section>
  );
}
