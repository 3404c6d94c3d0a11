/** True for an absolute http(s) URL (return URLs, tracking links, webhook addresses). */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Scheme and host of links the API builds: `PUBLIC_URL` when set, else the request's own (trusted-proxy aware). */
export function publicBaseUrl(req: { protocol: string; get(name: string): string | undefined }, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
