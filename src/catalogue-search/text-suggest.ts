import { textTokens } from './text-fold.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';
import type { TextIndex } from './text-index.js';

/**
 * Suggestions as you type (issue 35, `GET /search/suggest`) over the text dictionary of the catalogue engine: the
 * products and the facet codes (producers, facet values, custom-field options, categories) whose words begin with
 * every word typed, found through the dictionary's sorted term list and posting lists (no pass over the catalogue),
 * then ranked by how well the label in the active language begins with what was typed, and by popularity (the
 * visible products a suggestion leads to).
 */

/** How well a label matches the typed words (higher is better; 0: no match). */
export const QUALITY = {
  /** The label is exactly the words ("riesling" → "Riesling"). */
  exact: 4,
  /** The label begins with the words, each a prefix of the label's word at its place ("rie" → "Riesling Kabinett"). */
  start: 3,
  /** A later word of the label begins the words ("rie" → "Bravo Riesling"). */
  word: 2,
  /** Each word is a prefix of some word of the label, in any order ("ries bra" → "Bravo Riesling"). */
  any: 1,
} as const;

/** Folded words of what was typed (at most 8, like `q`). */
export function suggestWords(q: string): string[] {
  return textTokens(q).slice(0, 8);
}

/** The match quality of a label for the typed words (`QUALITY`), 0 when some word begins none of the label's words. */
export function matchQuality(words: readonly string[], label: string): number {
  return tokensQuality(words, textTokens(label));
}

/** `matchQuality` of a label already folded into its words `t` (`textTokens`). */
export function tokensQuality(words: readonly string[], t: readonly string[]): number {
  const k = words.length;
  if (k === 0) return 0;
  const runAt = (j: number) => {
    if (j + k > t.length) return false;
    for (let i = 0; i < k; i++) if (!t[j + i].startsWith(words[i])) return false;
    return true;
  };
  if (runAt(0)) return t.length === k && words.every((w, i) => t[i] === w) ? QUALITY.exact : QUALITY.start;
  for (let j = 1; j < t.length; j++) if (runAt(j)) return QUALITY.word;
  return words.every((w) => t.some((x) => x.startsWith(w))) ? QUALITY.any : 0;
}

/** One suggestion before grouping. */
export interface SuggestCandidate {
  kind: string;
  id: string;
  label: string;
  count: number;
  quality: number;
  filter?: { param: string; value: string };
  handle?: string | null;
}

export interface SuggestGroup {
  kind: string;
  items: SuggestCandidate[];
}

/**
 * The best `limit` candidates (quality, then visible products, then the folded label, then the kind's place in
 * `kinds`, then id), grouped by kind in the order of `kinds` (a kind not in it goes last), each group in rank order.
 */
export function rankAndGroup(candidates: readonly SuggestCandidate[], kinds: readonly string[], limit: number): SuggestGroup[] {
  const place = (k: string) => {
    const i = kinds.indexOf(k);
    return i < 0 ? kinds.length : i;
  };
  const folded = new Map<SuggestCandidate, string>();
  const fold = (c: SuggestCandidate) => {
    let f = folded.get(c);
    if (f === undefined) folded.set(c, (f = textTokens(c.label).join(' ')));
    return f;
  };
  const top = firstInOrder(
    candidates,
    limit,
    (a, b) =>
      b.quality - a.quality ||
      b.count - a.count ||
      (fold(a) < fold(b) ? -1 : fold(a) > fold(b) ? 1 : 0) ||
      place(a.kind) - place(b.kind) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const groups = new Map<string, SuggestCandidate[]>();
  for (const c of top) {
    const g = groups.get(c.kind);
    if (g) g.push(c);
    else groups.set(c.kind, [c]);
  }
  return [...groups.entries()].sort((a, b) => place(a[0]) - place(b[0])).map(([kind, items]) => ({ kind, items }));
}

/** Terms of the dictionary beginning with `w` (the word itself included), at most `cap`. */
export function prefixTerms(text: TextIndex, w: string, cap = 5000): number[] {
  const sorted = text.sortedTerms();
  const out: number[] = [];
  for (let i = text.firstSortedAtOrAfter(w); i < sorted.length && out.length < cap; i++) {
    if (!text.terms[sorted[i]].startsWith(w)) break;
    out.push(sorted[i]);
  }
  return out;
}

/**
 * Live product slots whose own text (titles in every language, producer, SKU, handle) has, for every word, a word
 * beginning with it. The text index must be synced (`TextIndex.sync`).
 */
export function productCandidates(idx: ReadonlyTenantIndex, words: readonly string[]): number[] {
  const text = idx.text;
  const seen = new Uint8Array(idx.pCount);
  let alive: number[] = [];
  words.forEach((w, i) => {
    const next: number[] = [];
    const { data, start, len } = text.post;
    for (const term of prefixTerms(text, w)) {
      for (let k = start[term], e = k + len[term]; k < e; k++) {
        const v = data[k];
        const p = idx.vProduct[v];
        if (p < 0 || !idx.pAlive[p] || seen[p] !== i) continue;
        seen[p] = i + 1;
        next.push(p);
      }
    }
    alive = next;
  });
  return alive;
}

/**
 * Codes (facet values, producers, options, categories) carried by some live variant whose names (any language, an
 * option's raw value) have, for every word, a word beginning with it. The text index must be synced and named.
 */
export function codeCandidates(idx: ReadonlyTenantIndex, words: readonly string[]): number[] {
  const text = idx.text;
  const seen = new Uint8Array(idx.codeIds.length);
  let out: number[] = [];
  words.forEach((w, i) => {
    const next: number[] = [];
    const { data, start, len, count } = text.codePost;
    for (const term of prefixTerms(text, w)) {
      if (term >= count) continue;
      for (let k = start[term], e = k + len[term]; k < e; k++) {
        const c = data[k];
        if (c >= seen.length || seen[c] !== i) continue;
        seen[c] = i + 1;
        next.push(c);
      }
    }
    out = next;
  });
  return out;
}

/**
 * A map kept in the index's memo under `key` while the index's content is unchanged (a new empty one after a change),
 * with its memo entry, whose `bytes` the caller grows as it adds.
 */
export function contentMemo<K, V>(idx: ReadonlyTenantIndex, key: string): { map: Map<K, V>; entry: { bytes: number } } {
  let hit = idx.memo.get(key);
  if (!hit || hit.version !== idx.contentVersion) {
    hit = { version: idx.contentVersion, value: new Map<K, V>(), bytes: 64 };
    idx.memo.set(key, hit);
  }
  return { map: hit.value as Map<K, V>, entry: hit };
}

/** Visible products carrying code `c` (the count a listing filtered by it finds), kept per content version. */
export function codeProductCount(idx: ReadonlyTenantIndex, c: number): number {
  const { map: counts, entry: hit } = contentMemo<number, number>(idx, 'suggest|counts');
  const kept = counts.get(c);
  if (kept !== undefined) return kept;
  const products = new Set<number>();
  const { data, start, len, count } = idx.text.codeVars;
  for (let k = c < count ? start[c] : 0, e = c < count ? k + len[c] : 0; k < e; k++) {
    const v = data[k];
    const p = idx.vProduct[v];
    if (p >= 0 && idx.pAlive[p]) products.add(p);
  }
  counts.set(c, products.size);
  hit.bytes += 24;
  return products.size;
}

/**
 * The first `k` of `items` in the order `cmp` gives, ties kept in their order in `items`: what
 * `[...items].sort(cmp).slice(0, k)` answers (the sort is stable), without sorting every item. A 3-letter prefix matches
 * tens of thousands of products of a large shop, of which a suggestion needs the best 50: each item is compared with the
 * worst kept one first, and only a better one is placed (binary search) among the kept.
 */
export function firstInOrder<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  if (k <= 0) return kept;
  for (const item of items) {
    // an item equal to the worst kept comes later in `items`: it stays behind it, so it is not kept when full
    if (kept.length === k && cmp(item, kept[k - 1]) >= 0) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(item, kept[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    kept.splice(lo, 0, item);
    if (kept.length > k) kept.pop();
  }
  return kept;
}
