/** Answers kept per index at most. */
const MAX_ENTRIES = 1_000;
/** Bytes of answers kept per index at most (estimated; counted in the index's size, so in the memory budget). */
const MAX_BYTES = 16 * 1024 * 1024;
/** Bits of the doorkeeper (questions asked once, hashed; 8 KB per index, not counted) and after how many it forgets. */
const DOORKEEPER_BITS = 1 << 16;
const DOORKEEPER_FORGETS_AFTER = 8_192;

interface Kept<T> {
  contentVersion: number;
  /** The availability version the answer depends on, or -1 when it does not depend on stock. */
  availVersion: number;
  value: T;
  bytes: number;
  /** A part shared with other answers (`set`'s `shared`), counted once however many answers hold it. */
  shared: object | null;
}

/**
 * The engine's answers to the questions of one `TenantIndex`, kept while they are provably the answer the index
 * would compute now: keyed by the whole question, valid for the content version they were computed on (any product
 * change retires every answer) and, when the question filters on availability, for the availability version (a
 * stock movement that flips a variant's availability retires them; one that only moves a quantity retires nothing,
 * and no stock movement retires an answer that does not filter on availability: the page's stock is overlaid after
 * the engine, on every request). Least recently used out, bounded in entries and bytes. Nothing here can be stale:
 * an answer is either the one the index computes or gone, so the memo saves work on repeated questions without
 * being a correctness or freshness lever (no time to live).
 *
 * A question is kept from its second ask (`admit`): a doorkeeper remembers the questions asked once (a bit per hashed
 * question, forgotten every 8,192 of them), as TinyLFU's does; a question whose answer was kept and then dropped (a
 * new version, the least recently used out, a product change) is marked again, so its next answer is kept at once.
 * A storefront's long tail of filter combinations asked once (a crawler, a visitor clicking through filters) then
 * neither pushes the popular answers out nor fills the heap with answers kept only to be dropped again; a false
 * positive only keeps an answer early.
 */
export class AnswerMemo<T> {
  private readonly kept = new Map<string, Kept<T>>();
  private held = 0;
  /** Shared parts of kept answers: how many answers hold each, and its bytes (in `held` once). */
  private readonly parts = new Map<object, { refs: number; bytes: number }>();
  private readonly seen = new Uint32Array(DOORKEEPER_BITS >>> 5);
  private seenCount = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** The kept answer of `key` if it is valid at these versions (`availVersion` -1: the question ignores stock). */
  get(key: string, contentVersion: number, availVersion: number): T | undefined {
    const k = this.kept.get(key);
    if (k === undefined) {
      this.misses += 1;
      return undefined;
    }
    if (k.contentVersion !== contentVersion || k.availVersion !== availVersion) {
      this.forget(key, k);
      this.mark(key); // a question that was kept stays admitted: its new answer is kept at once
      this.misses += 1;
      return undefined;
    }
    // most recently used last
    this.kept.delete(key);
    this.kept.set(key, k);
    this.hits += 1;
    return k.value;
  }

  /**
   * Keeps `value` (`bytes` of its own). `shared`: a part of it other answers may hold too (a text search's facet
   * counts, `facet-sets.ts`), of `shared.bytes`, counted once while any kept answer holds it.
   */
  set(key: string, contentVersion: number, availVersion: number, value: T, bytes: number, shared?: { part: object; bytes: number }): void {
    const part = shared ? this.parts.get(shared.part) : undefined;
    if (bytes + (shared && !part ? shared.bytes : 0) > this.maxBytes / 4) return; // one answer never takes a quarter of the memo
    const old = this.kept.get(key);
    if (old) this.forget(key, old);
    this.kept.set(key, { contentVersion, availVersion, value, bytes, shared: shared?.part ?? null });
    this.held += bytes;
    if (shared) {
      const p = this.parts.get(shared.part);
      if (p) p.refs += 1;
      else {
        this.parts.set(shared.part, { refs: 1, bytes: shared.bytes });
        this.held += shared.bytes;
      }
    }
    while (this.kept.size > this.maxEntries || this.held > this.maxBytes) {
      const [oldest, k] = this.kept.entries().next().value!;
      this.forget(oldest, k);
      this.mark(oldest);
    }
  }

  /**
   * Whether the answer to `key` is worth keeping: true when the question was asked before (since the doorkeeper last
   * forgot), else it is remembered as asked once and false.
   */
  admit(key: string): boolean {
    return this.mark(key);
  }

  /** Drops every answer (a product change: none is valid any more); their questions stay admitted. */
  clear(): void {
    for (const key of this.kept.keys()) this.mark(key);
    this.kept.clear();
    this.parts.clear();
    this.held = 0;
  }

  get size(): number {
    return this.kept.size;
  }

  bytes(): number {
    return this.held;
  }

  /** Sets the doorkeeper's bit of `key`; true when it was set already (forgotten after 8,192 newly set bits). */
  private mark(key: string): boolean {
    // FNV-1a over the question's UTF-16 code units
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const slot = (h >>> 0) & (DOORKEEPER_BITS - 1);
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    if ((this.seen[word] & bit) !== 0) return true;
    this.seen[word] |= bit;
    if (++this.seenCount >= DOORKEEPER_FORGETS_AFTER) {
      this.seen.fill(0);
      this.seenCount = 0;
    }
    return false;
  }

  private forget(key: string, k: Kept<T>): void {
    this.kept.delete(key);
    this.held -= k.bytes;
    const p = k.shared !== null ? this.parts.get(k.shared) : undefined;
    if (p && --p.refs === 0) {
      this.parts.delete(k.shared!);
      this.held -= p.bytes;
    }
  }
}
