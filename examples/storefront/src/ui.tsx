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

/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return null;
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The text colour (white or black) with the higher contrast on a flag's colour from the API: always at least 4.5:1. */
export function textOn(background: string): string {
  const l = luminance(background);
  if (l === null) return '#fff';
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#fff' : '#000';
}
