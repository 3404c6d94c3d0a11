import type { ExpandedQuery } from './synonym-expand.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';
import type { TextIndex } from './text-index.js';
import { indexOf, intersect, keptBytes, union, type SlotScores } from './slot-lists.js';

export type { SlotScores } from './slot-lists.js';

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

/** Word and group answers kept per tenant (variant lists of the most recent words and synonym groups). */
const MAX_WORD_MEMO = 512;

/**
 * Text matching over a `TextIndex` (issue 35): each word's variants and scores from its dictionary candidates (own
 * text: the posting lists; names: the codes' variant lists), kept per word (and per synonym group) while the
 * dictionary, names and content are unchanged; groups ANDed (scores summed), a group's alternatives ORed (best
 * score), a phrase's words ANDed (lowest score). Every list is sorted by slot, so the AND and OR are merges of sorted
 * lists (the smallest list first, a galloping search through a much longer one) that touch no per-slot scratch; a
 * kept list is shared, never written (the handle bonus copies it first).
 */
export class TextMatcher {
  private stamp = new Int32Array(0);
  private score = new Float64Array(0);
  private epoch = 0;
  private readonly words = new Map<string, { at: string; value: SlotScores; bytes: number }>();
  /** Bytes of the kept lists (`keptBytes`), summed as they come and go (read on every search). */
  private held = 0;

  constructor(
    private readonly idx: ReadonlyTenantIndex,
    private readonly text: TextIndex,
  ) {}

  /** The variants matching the whole query (with their relevance), `handle` the raw query (trimmed, lower case). */
  match(query: ExpandedQuery, handle: string): SlotScores {
    this.text.sync(this.idx);
    const groups = query.map((alts) => this.group(alts));
    let out = this.and(groups, 'sum');
    const boosted = this.text.handles.get(handle);
    if (boosted !== undefined && out.slots.length > 0) {
      // the list may be a word's kept one: its scores are copied before the bonus is added
      out = { slots: out.slots, rel: out.rel.slice() };
      const { data, start, len } = this.text.handleSlots;
      for (let k = start[boosted], end = k + len[boosted]; k < end; k++) {
        const i = indexOf(out.slots, data[k]);
        if (i >= 0) out.rel[i] += HANDLE_BONUS;
      }
    }
    return out;
  }

  /** One word's variants and scores. */
  word(w: string): SlotScores {
    return this.kept(w, () => this.compute(w));
  }

  /**
   * A group's variants: its alternatives ORed, each the AND of a phrase's words; kept like a word (a synonym group,
   * e.g. a grape's names, recurs across searches as a word does). A single word is that word's list.
   */
  private group(alts: string[][]): SlotScores {
    if (alts.length === 1 && alts[0].length === 1) return this.word(alts[0][0]);
    // words are letters, digits and dots: a key with spaces and bars is no word's
    const key = alts.map((phrase) => phrase.join(' ')).join('|');
    return this.kept(key, () =>
      this.or(
        alts.map((phrase) =>
          this.and(
            phrase.map((w) => this.word(w)),
            'min',
          ),
        ),
      ),
    );
  }

  private forget(key: string): void {
    const kept = this.words.get(key);
    if (kept === undefined) return;
    this.held -= kept.bytes;
    this.words.delete(key);
  }

  /** The list kept under `key` while the content, dictionary and names are unchanged, else made (`make`) and kept. */
  private kept(key: string, make: () => SlotScores): SlotScores {
    const at = `${this.idx.contentVersion}|${this.text.state}`;
    const hit = this.words.get(key);
    if (hit && hit.at === at) return hit.value;
    const value = make();
    if (this.words.size >= MAX_WORD_MEMO) this.forget(this.words.keys().next().value!);
    this.forget(key);
    const bytes = keptBytes(value) + 64;
    this.words.set(key, { at, value, bytes });
    this.held += bytes;
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
    const post = text.post;
    const codePost = text.codePost;
    const codeVars = text.codeVars;
    for (const { term, kind } of text.candidates(w)) {
      const own = kind === 3 ? SCORE.exactOwn : kind === 2 ? SCORE.prefixOwn : SCORE.typoOwn;
      for (let i = post.start[term], e = i + post.len[term]; i < e; i++) put(post.data[i], own);
      const named = own - 1;
      for (let j = codePost.start[term], ej = j + codePost.len[term]; j < ej; j++) {
        const c = codePost.data[j];
        if (c >= codeVars.count) continue;
        for (let i = codeVars.start[c], e = i + codeVars.len[c]; i < e; i++) put(codeVars.data[i], named);
      }
    }
    const slots = Int32Array.from(touched).sort();
    const rel = new Float64Array(slots.length);
    for (let i = 0; i < slots.length; i++) rel[i] = score[slots[i]];
    return { slots, rel };
  }

  /** Slots in every list: scores summed or their minimum (the smallest list first; a single list is returned as is). */
  private and(lists: SlotScores[], mode: 'sum' | 'min'): SlotScores {
    if (lists.length === 1) return lists[0];
    const order = [...lists].sort((a, b) => a.slots.length - b.slots.length);
    let out = order[0];
    for (let j = 1; j < order.length && out.slots.length > 0; j++) out = intersect(out, order[j], mode === 'sum');
    return out;
  }

  /** Slots in any list, with their best score. */
  private or(lists: SlotScores[]): SlotScores {
    let out = lists[0];
    for (let j = 1; j < lists.length; j++) out = union(out, lists[j]);
    return out;
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
    b += this.held;
    return b;
  }
}
