import type { ReactNode, SyntheticEvent } from 'react';
import { ApiError } from './api/client';
import { useShop } from './store';

export function ErrorNote({ error, prefix }: { error: unknown; prefix?: string }) {
  const { t } = useShop();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : null;
  const known = code && prefix ? t(`${prefix}.${code}`) : null;
  const text = known && known !== `${prefix}.${code}` ? known : t('error', { message: error instanceof Error ? error.message : String(error) });
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export function Loading() {
  const { t } = useShop();
  return (
    <p className="loading" role="status">
      {t('loading')}
    </p>
  );
}

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint && <small>{hint}</small>}
    </label>
  );
}

/** A product image that cannot load leaves the bottle drawn behind it (.card-image, .product-image). */
export const hideImage = (e: SyntheticEvent<HTMLImageElement>) => {
  e.currentTarget.style.visibility = 'hidden';
};
