/** The visitor id inside a response's signed `visitor_id` cookie (`s:<32 hex>.<signature>`). */
export function visitorIdOf(setCookie: string[] | string | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : [setCookie ?? ''];
  const raw = all.find((c) => c.startsWith('visitor_id='));
  if (raw === undefined) throw new Error('no visitor_id cookie was set');
  const value = decodeURIComponent(raw.split(';')[0].slice('visitor_id='.length));
  const m = /^s:([0-9a-f]{32})\./.exec(value);
  if (!m) throw new Error(`malformed visitor_id cookie: ${value}`);
  return m[1];
}
