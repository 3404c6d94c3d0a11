import { expect } from '@jest/globals';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** What the fast lanes' parity e2e share (list and suggest, README "Search"): raw requests and comparable answers. */

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers (no client defaults such as Accept-Encoding), the body as raw bytes. */
export function raw(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ between any two answers (the date, the request id, the visitor cookie's id and expiry), normalized. */
export function comparable(a: Answer): { status: number; headers: Record<string, unknown>; body: string } {
  const headers: Record<string, unknown> = { ...a.headers };
  delete headers.date;
  expect(typeof headers['x-request-id']).toBe('string');
  delete headers['x-request-id'];
  const cookies = headers['set-cookie'] as string[] | undefined;
  if (cookies)
    headers['set-cookie'] = cookies.map((c) =>
      c.replace(/^visitor_id=s%3A[0-9a-f]{32}\.[^;]+;/, 'visitor_id=<signed>;').replace(/Expires=[^;]+;/, 'Expires=<date>;'),
    );
  return { status: a.status, headers, body: a.body.toString('base64') };
}

/** The value of the first sample of `name` whose labels include `labels`. */
export function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm'))) {
    const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[2]);
  }
  return 0;
}
