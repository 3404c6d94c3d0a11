/** Following cursored lists (`Link: <absolute URL>; rel="next"`) in e2e tests. */
import { expect } from '@jest/globals';
import { API, type ShopClient } from './test-app.js';

type WithHeaders = { headers: Record<string, string | string[] | undefined> };

/** The path (relative to the API prefix, as the test clients take it) of a response's `rel="next"` link, or null. */
export function nextPath(res: WithHeaders): string | null {
  const link = res.headers.link;
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`malformed Link header: ${String(link)}`);
  const url = new URL(m[1]);
  if (!url.pathname.startsWith(API)) throw new Error(`Link header outside ${API}: ${String(link)}`);
  return url.pathname.slice(API.length) + url.search;
}

/** The `page_info` of a response's next link (the response must have one). */
export function pageInfoOf(res: WithHeaders): string {
  const path = nextPath(res);
  if (path === null) throw new Error('the response has no Link rel="next"');
  const info = new URL(`http://x${path}`).searchParams.get('page_info');
  if (info === null) throw new Error(`the next link has no page_info: ${path}`);
  return info;
}

/** Walks a list from `start` following the next links verbatim; each page's body is exactly `{member: [...]}`. Returns the ids in order. */
export async function walkIds(client: ShopClient, start: string, member: string): Promise<string[]> {
  const seen: string[] = [];
  let path: string | null = start;
  while (path) {
    const res = await client.get(path).expect(200);
    expect(Object.keys(res.body)).toEqual([member]);
    seen.push(...res.body[member].map((r: { id: string }) => r.id));
    path = nextPath(res);
  }
  return seen;
}
