/**
 * Query parameters whose values never reach a trace: the guest receipt's and the test payment page's `hash`, shopper
 * and reset `token`s, cursors (`page_info`), one-time `code`s, and any parameter named like a secret.
 */
const SECRET_NAME = /^(hash|token|page_info|code)$|secret|token|passw|pwd|hash|code|key|sig|auth|session|credential|cookie|otp|nonce|ticket/i;

/** The value written instead of a secret parameter's. */
export const REDACTED = 'REDACTED';

/** Span attributes that may hold a query string (stable and older HTTP semantic conventions). */
export const URL_ATTRIBUTES = ['url.query', 'url.full', 'http.target', 'http.url', 'url.original'] as const;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** `a=1&hash=x` → `a=1&hash=REDACTED`: every secret-like parameter's value replaced, the rest kept as sent (linear). */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_NAME.test(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** A URL, a path with a query, or a bare query (`url.query` has no `?`): its secret-like parameters redacted. */
export function redactUrlAttribute(key: string, value: string): string {
  if (key === 'url.query') return redactQuery(value);
  const q = value.indexOf('?');
  if (q === -1) return value;
  const hash = value.indexOf('#', q);
  const query = hash === -1 ? value.slice(q + 1) : value.slice(q + 1, hash);
  return `${value.slice(0, q + 1)}${redactQuery(query)}${hash === -1 ? '' : value.slice(hash)}`;
}
