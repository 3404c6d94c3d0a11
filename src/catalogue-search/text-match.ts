import type { ExpandedQuery } from './synonym-expand.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';
import type { TextIndex } from './text-index.js';

/** Variant slots with a score each (no slot twice). */
export interface SlotScores {
  slots: Int32Array;
  rel: Float64Array;
}

/**
 * Points of one query word by how and where it matched (README, "Search": the scoring table). A variant's word score
 * is the best of its matches; its relevance the sum over the query's words; a product's the best of its matching
 * variants. The whole query equal to the product's handle adds `HANDLE_BONUS`.
 */
export const SCORE = {
  exactOwn: 6,
  exactName: 5,
  prefixOwn: 4,
  prefixName: 3,
  typoOwn: 2,
  typoName: 1,
} as const;
export const HANDLE_BONUS = 100;

/** Word answers kept per tenant (variant lists of the most recent words). */
const MAX_WORD_MEMO = 512;

/**
 * Text matching over a `TextIndex` (issue 35): each word's variants and scores from its dictionary candidates (own
 * text: the posting lists; names: the codes' variant lists), kept per word while the dictionary, names and content
 * are unchanged; groups ANDed (scores summed), a group's alternatives ORed (best score), a phrase's words ANDed
 * (lowest score). Scratch arrays per slot, reused (one query at a time).
 */
export class TextMatcher {
  private stamp = new Int32Array(0);
  private score = new Float64Array(0);
  private epoch = 0;
  private readonly words = new Map<string, { at: string; value: SlotScores }>();

  constructor(
    private readonly idx: ReadonlyTenantIndex,
    private readonly text: TextIndex,
  ) {}

  /** The variants matching the whole query (with their relevance), `handle` the raw query (trimmed, lower case). */
  match(query: ExpandedQuery, handle: string): SlotScores {
    this.text.sync(this.idx);
    const groups = query.map((alts) =>
      this.or(
        alts.map((phrase) =>
          this.and(
            phrase.map((w) => this.word(w)),
            'min',
          ),
        ),
      ),
    );
    const out = this.and(groups, 'sum');
    const boosted = this.text.handles.get(handle);
    if (boosted && out.slots.length > 0) {
      const set = new Set(boosted);
      for (let i = 0; i < out.slots.length; i++) if (set.has(out.slots[i])) out.rel[i] += HANDLE_BONUS;
    }
    return out;
  }

  /** One word's variants and scores. */
  word(w: string): SlotScores {
    const at = `${this.idx.contentVersion}|${this.text.state}`;
    const kept = this.words.get(w);
    if (kept && kept.at === at) return kept.value;
    const value = this.compute(w);
    if (this.words.size >= MAX_WORD_MEMO) this.words.delete(this.words.keys().next().value!);
    this.words.delete(w);
    this.words.set(w, { at, value });
    return value;
  }

  private compute(w: string): SlotScores {
    const { vProduct } = this.idx;
    const text = this.text;
    const e = this.begin(1);
    const stamp = this.stamp;
    const score = this.score;
    const touched: number[] = [];
    const put = (v: number, s: number) => {
      if (vProduct[v] < 0) return;
      if (stamp[v] !== e) {
        stamp[v] = e;
        score[v] = s;
        touched.push(v);
      } else if (s > score[v]) score[v] = s;
    };
    for (const { term, kind } of text.candidates(w)) {
      const own = kind === 3 ? SCORE.exactOwn : kind === 2 ? SCORE.prefixOwn : SCORE.typoOwn;
      for (const v of text.post[term]) put(v, own);
      const codes = text.codePost[term];
      if (codes.length === 0) continue;
      const named = own - 1;
      for (const c of codes) {
        const vars = text.codeVars[c];
        if (vars) for (const v of vars) put(v, named);
      }
    }
    const rel = new Float64Array(touched.length);
    for (let i = 0; i < touched.length; i++) rel[i] = score[touched[i]];
    return { slots: Int32Array.from(touched), rel };
  }

  /** Slots in every list: scores summed or their minimum. */
  private and(lists: SlotScores[], mode: 'sum' | 'min'): SlotScores {
    if (lists.length === 1) return copy(lists[0]);
    const order = [...lists].sort((a, b) => a.slots.length - b.slots.length);
    const k = order.length;
    const e = this.begin(k);
    const stamp = this.stamp;
    const score = this.score;
    const first = order[0];
    for (let i = 0; i < first.slots.length; i++) {
      stamp[first.slots[i]] = e;
      score[first.slots[i]] = first.rel[i];
    }
    for (let j = 1; j < k; j++) {
      const l = order[j];
      for (let i = 0; i < l.slots.length; i++) {
        const v = l.slots[i];
        if (stamp[v] !== e + j - 1) continue;
        stamp[v] = e + j;
        score[v] = mode === 'sum' ? score[v] + l.rel[i] : Math.min(score[v], l.rel[i]);
      }
    }
    const slots: number[] = [];
    for (let i = 0; i < first.slots.length; i++) if (stamp[first.slots[i]] === e + k - 1) slots.push(first.slots[i]);
    const rel = new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) rel[i] = score[slots[i]];
    return { slots: Int32Array.from(slots), rel };
  }

  /** Slots in any list, with their best score. */
  private or(lists: SlotScores[]): SlotScores {
    if (lists.length === 1) return lists[0];
    const e = this.begin(1);
    const stamp = this.stamp;
    const score = this.score;
    const slots: number[] = [];
    for (const l of lists) {
      for (let i = 0; i < l.slots.length; i++) {
        const v = l.slots[i];
        if (stamp[v] !== e) {
          stamp[v] = e;
          score[v] = l.rel[i];
          slots.push(v);
        } else if (l.rel[i] > score[v]) score[v] = l.rel[i];
      }
    }
    const rel = new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) rel[i] = score[slots[i]];
    return { slots: Int32Array.from(slots), rel };
  }

  /** Reserves `n` fresh stamp values (scratch sized to the slots), returns the first. */
  private begin(n: number): number {
    const size = this.idx.vCount;
    if (this.stamp.length < size) {
      this.stamp = new Int32Array(size + 1024);
      this.score = new Float64Array(size + 1024);
      this.epoch = 0;
    }
    if (this.epoch + n + 1 >= 0x7fffffff) {
      this.stamp.fill(0);
      this.epoch = 0;
    }
    const e = this.epoch + 1;
    this.epoch += n + 1;
    return e;
  }

  bytes(): number {
    let b = this.stamp.byteLength + this.score.byteLength;
    for (const { value } of this.words.values()) b += value.slots.byteLength + value.rel.byteLength + 64;
    return b;
  }
}

function copy(s: SlotScores): SlotScores {
  return { slots: s.slots.slice(), rel: s.rel.slice() };
}
