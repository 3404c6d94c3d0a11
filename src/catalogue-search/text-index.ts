import { DIM } from './dims.js';
import { PostingPool } from './posting-pool.js';
import { boundedDistance, isNumber, textTokens, typoBudget } from './text-fold.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/** How a query word matched a term of the dictionary (higher is better). */
export const EXACT = 3;
export const PREFIX = 2;
export const TYPO = 1;

export interface TermHit {
  term: number;
  kind: number;
}

/** Terms a word's prefix may reach before the rest are left out (a one-letter word in a large shop). */
const MAX_PREFIX_TERMS = 2000;
/** Word candidates kept per dictionary state. */
const MAX_CANDIDATE_MEMO = 4096;

/**
 * The text side of a tenant's catalogue index (issue 35): a token dictionary with posting lists.
 *
 * - Each variant slot's own text (product and variant titles in every language, producer, SKU, handle: the
 *   `search_text` of `variant_search` and the product's handle) is put with the slot (`put`) and tokenized on the
 *   next query (`sync`): its terms' posting lists get the slot. Slots are append-only in the index (a product change
 *   appends new slots and kills the old ones), so the lists only grow; a dead slot (`vProduct < 0`) is skipped when
 *   read. A stock change never touches them.
 * - Facet value, category, manufacturer and custom-field option names (every language) come from the facet-name
 *   snapshot (`setNames`): their terms' lists hold codes; `codeVars` lists the variant slots carrying each code
 *   (a product-level code — manufacturer, category with its ancestors — for each of the product's variants).
 * - Typo candidates come from the dictionary by length bucket (a bounded Levenshtein band), prefix candidates from
 *   the sorted term list.
 */
export class TextIndex {
  private vText: string[] = [];
  private vHandle: Array<string | null> = [];
  /** Lower-cased handle → its list in `handleSlots`: variant slots of the product (dead ones skipped when read). */
  readonly handles = new Map<string, number>();
  /** The handles' slot lists. */
  handleSlots = new PostingPool();
  private readonly termOf = new Map<string, number>();
  readonly terms: string[] = [];
  /** Term → whether it is a number (numbers are never typo or prefix candidates), decided once per term. */
  private readonly numeric: boolean[] = [];
  /**
   * Term → variant slots whose own text has it (list `term` of the pool). The lists of this class are pooled typed
   * arrays (`PostingPool`), not an array per list: at 100,000 products they are millions of entries in a few hundred
   * thousand lists, which as JavaScript arrays made most of what a full GC marks.
   */
  post = new PostingPool();
  /** Term → codes whose name has it. */
  codePost = new PostingPool();
  /** Code → variant slots carrying it. */
  codeVars = new PostingPool();
  private readonly byLength: number[][] = [];
  private sorted: number[] | null = null;
  private upTo = 0;
  private codesSeen = 0;
  /** Names by facet id (every language), from the last `setNames`. */
  private names = new Map<string, readonly string[]>();
  namesVersion = -1;
  /** Bumped whenever the dictionary or the names change (keys of word memos). */
  state = 0;
  private readonly candidateMemo = new Map<string, TermHit[]>();

  /** The own text of variant slot `v` (called by `TenantIndex` as the slot is appended). */
  put(v: number, text: string, handle: string | null): void {
    this.vText[v] = text;
    this.vHandle[v] = handle;
  }

  /** What `put` got for slot `v` (a renumbering copy puts it again under the new slot). */
  source(v: number): [string, string | null] {
    return [this.vText[v] ?? '', this.vHandle[v] ?? null];
  }

  /** Whether every slot of `idx` is tokenized (the next `sync` has no slot to do). */
  synced(idx: ReadonlyTenantIndex): boolean {
    return this.upTo >= idx.vCount;
  }

  /** Tokenizes the slots appended since the last call, and names codes first seen since. */
  sync(idx: ReadonlyTenantIndex): void {
    const n = idx.vCount;
    if (this.upTo < n) {
      for (let v = this.upTo; v < n; v++) {
        const p = idx.vProduct[v];
        if (p < 0) continue;
        const handle = this.vHandle[v];
        const own = new Set(textTokens(`${this.vText[v] ?? ''} ${handle ?? ''}`));
        for (const t of own) this.post.push(this.termId(t), v);
        if (handle) {
          const key = handle.toLowerCase();
          let list = this.handles.get(key);
          if (list === undefined) this.handles.set(key, (list = this.handleSlots.add()));
          this.handleSlots.push(list, v);
        }
        this.addCode(idx.pMaker[p], v);
        for (let i = idx.pCatStart[p], e = i + idx.pCatLen[p]; i < e; i++) this.addCode(idx.catPool[i], v);
        this.addCode(idx.vDim[DIM.colors][v], v);
        this.addCode(idx.vDim[DIM.sizes][v], v);
        this.addCode(idx.vDim[DIM.years][v], v);
        this.addCode(idx.vDim[DIM.countries][v], v);
        this.addCode(idx.vDim[DIM.regions][v], v);
        for (let i = idx.vOptStart[v], e = i + idx.vOptLen[v]; i < e; i++) this.addCode(idx.optPool[i], v);
      }
      this.upTo = n;
      this.state += 1;
    }
    if (this.codesSeen < idx.codeIds.length) {
      for (let c = this.codesSeen; c < idx.codeIds.length; c++) this.nameCode(c, idx.codeIds[c]);
      this.codesSeen = idx.codeIds.length;
      this.state += 1;
    }
  }

  /**
   * After a layout (`index-layout.ts`), this empty dictionary of the copy takes `src`'s, synced, with every variant
   * slot renumbered (`oldOf[v]`: the copy's slot v's slot in `src`; a slot of `src` left out, a dead one, is dropped
   * from the lists), instead of tokenizing every slot's text again on the copy's first text query (seconds at 100k
   * products, in one piece). False, and nothing taken, when `src` is not synced up to its `srcCount` slots.
   */
  adoptLayout(src: TextIndex, srcCount: number, oldOf: Int32Array): boolean {
    if (src.upTo !== srcCount || this.upTo !== 0 || this.terms.length !== 0) return false;
    const newOf = new Int32Array(srcCount).fill(-1);
    for (let v = 0; v < oldOf.length; v++) newOf[oldOf[v]] = v;
    const remap = (o: number) => (o < srcCount ? newOf[o] : -1);
    for (const [t, id] of src.termOf) this.termOf.set(t, id);
    for (let t = 0; t < src.terms.length; t++) {
      this.terms.push(src.terms[t]);
      this.numeric.push(src.numeric[t]);
    }
    this.post = src.post.mapped(remap);
    this.codePost = src.codePost.mapped((c) => c);
    this.codeVars = src.codeVars.mapped(remap);
    for (const l of src.byLength) this.byLength.push(l.slice());
    this.sorted = src.sorted ? src.sorted.slice() : null;
    this.handleSlots = src.handleSlots.mapped(remap);
    for (const [h, l] of src.handles) if (this.handleSlots.size(l) > 0) this.handles.set(h, l);
    this.names = src.names;
    this.namesVersion = src.namesVersion;
    this.codesSeen = src.codesSeen;
    this.upTo = oldOf.length;
    this.state = src.state + 1;
    return true;
  }

  /** The facet names (every language) by id, under the snapshot's version: a new version re-reads every code's names. */
  setNames(idx: ReadonlyTenantIndex, version: number, names: () => Map<string, readonly string[]>): void {
    if (version === this.namesVersion) return;
    this.namesVersion = version;
    this.names = names();
    this.codePost = new PostingPool(this.terms.length);
    for (let c = 0; c < idx.codeIds.length; c++) this.nameCode(c, idx.codeIds[c]);
    this.codesSeen = idx.codeIds.length;
    this.state += 1;
  }

  private nameCode(c: number, id: string): void {
    const texts = this.names.get(id);
    if (!texts) return;
    const words = new Set<string>();
    for (const t of texts) for (const w of textTokens(t)) words.add(w);
    for (const w of words) this.codePost.push(this.termId(w), c);
  }

  private addCode(c: number, v: number): void {
    if (c < 0) return;
    this.codeVars.ensure(c + 1);
    this.codeVars.push(c, v);
  }

  private termId(t: string): number {
    let id = this.termOf.get(t);
    if (id === undefined) {
      id = this.terms.length;
      this.termOf.set(t, id);
      this.terms.push(t);
      this.numeric.push(isNumber(t));
      this.post.ensure(id + 1);
      this.codePost.ensure(id + 1);
      while (this.byLength.length <= t.length) this.byLength.push([]);
      this.byLength[t.length].push(id);
      this.sorted = null;
      this.candidateMemo.clear();
    }
    return id;
  }

  /** The term's id, or -1. */
  lookup(t: string): number {
    return this.termOf.get(t) ?? -1;
  }

  /**
   * The dictionary terms a query word reaches: itself (exact), the terms it begins (prefix; not for numbers), and
   * the terms within its typo budget (one edit from 5 letters, two from 9; not for numbers).
   */
  candidates(word: string): TermHit[] {
    const hit = this.candidateMemo.get(word);
    if (hit) return hit;
    const out: TermHit[] = [];
    const seen = new Set<number>();
    const exact = this.termOf.get(word);
    if (exact !== undefined) {
      out.push({ term: exact, kind: EXACT });
      seen.add(exact);
    }
    if (!isNumber(word)) {
      const sorted = this.sortedTerms();
      for (let i = this.firstSortedAtOrAfter(word), k = 0; i < sorted.length && k < MAX_PREFIX_TERMS; i++) {
        const t = sorted[i];
        if (!this.terms[t].startsWith(word)) break;
        if (seen.has(t)) continue;
        seen.add(t);
        out.push({ term: t, kind: PREFIX });
        k++;
      }
      const d = typoBudget(word);
      for (let len = Math.max(1, word.length - d); d > 0 && len <= word.length + d && len < this.byLength.length; len++) {
        for (const t of this.byLength[len]) {
          if (seen.has(t)) continue;
          if (this.numeric[t]) continue;
          if (boundedDistance(word, this.terms[t], d) <= d) {
            seen.add(t);
            out.push({ term: t, kind: TYPO });
          }
        }
      }
    }
    if (this.candidateMemo.size >= MAX_CANDIDATE_MEMO) this.candidateMemo.clear();
    this.candidateMemo.set(word, out);
    return out;
  }

  /** Closest dictionary terms to a word that has no match of its own (did-you-mean), best first: fewer edits, then more variants. */
  corrections(word: string, limit: number): string[] {
    if (isNumber(word) || word.length < 3) return [];
    const max = word.length >= 7 ? 2 : 1;
    const found: Array<{ t: number; d: number; n: number }> = [];
    for (let len = Math.max(1, word.length - max); len <= word.length + max && len < this.byLength.length; len++) {
      for (const t of this.byLength[len]) {
        const term = this.terms[t];
        if (term === word || this.numeric[t]) continue;
        const d = boundedDistance(word, term, max);
        if (d <= max) found.push({ t, d, n: this.post.size(t) + this.codePost.size(t) * 10 });
      }
    }
    found.sort((a, b) => a.d - b.d || b.n - a.n || (this.terms[a.t] < this.terms[b.t] ? -1 : 1));
    return found.slice(0, limit).map((f) => this.terms[f.t]);
  }

  /** Term ids ordered by their text (made again after the dictionary grew). */
  sortedTerms(): number[] {
    if (this.sorted === null) {
      const ids = this.terms.map((_, i) => i);
      ids.sort((a, b) => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0));
      this.sorted = ids;
    }
    return this.sorted;
  }

  /** The place in `sortedTerms()` of the first term not before `word` (a binary search): where its prefix terms begin. */
  firstSortedAtOrAfter(word: string): number {
    const sorted = this.sortedTerms();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[sorted[mid]] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Approximate memory held. */
  bytes(): number {
    // the pools' arrays, and per term its text and map entry
    let b = this.post.bytes() + this.codePost.bytes() + this.codeVars.bytes() + this.handleSlots.bytes();
    b += this.terms.length * 64 + this.handles.size * 48;
    for (const t of this.vText) if (t) b += 16 + t.length;
    return b;
  }
}
