/**
 * Many append-only int lists in one `Int32Array` (issue 35: the text index's posting lists): list `l` holds
 * `len[l]` entries from `start[l]` in `data`, with room for `cap[l]`. A push to a full list moves it to the end of
 * the pool with twice the room; the pool is compacted (every list rewritten with room for half its length again) once
 * the pool is 2.5 times the lists' entries. The old generation then holds a handful of typed arrays, not one JavaScript array per
 * list, so a full GC has nothing to mark here. Readers take `data`, `start` and `len` for one synchronous pass (a push
 * may replace `data`).
 */
export class PostingPool {
  data: Int32Array<ArrayBuffer> = new Int32Array(1024);
  start: Int32Array<ArrayBuffer> = new Int32Array(64);
  len: Int32Array<ArrayBuffer> = new Int32Array(64);
  private cap: Int32Array<ArrayBuffer> = new Int32Array(64);
  /** Lists made. */
  count = 0;
  /** Entries of `data` handed out (lists' room, moved-away room included). */
  private used = 0;
  /** Entries pushed and kept (the lists' lengths summed). */
  private live = 0;

  /** A pool of `n` empty lists. */
  constructor(n = 0) {
    this.ensure(n);
  }

  /** Makes lists until there are at least `n` (new ones empty). */
  ensure(n: number): void {
    if (n <= this.count) return;
    if (n > this.start.length) {
      const size = Math.max(n, this.start.length * 2);
      this.start = copyInto(new Int32Array(size), this.start);
      this.len = copyInto(new Int32Array(size), this.len);
      this.cap = copyInto(new Int32Array(size), this.cap);
    }
    this.count = n;
  }

  /** A new empty list's number. */
  add(): number {
    this.ensure(this.count + 1);
    return this.count - 1;
  }

  /** Appends `v` to list `l`. */
  push(l: number, v: number): void {
    const n = this.len[l];
    if (n === this.cap[l]) this.move(l, n === 0 ? 2 : n * 2);
    this.data[this.start[l] + n] = v;
    this.len[l] = n + 1;
    this.live += 1;
  }

  /** List `l`'s length. */
  size(l: number): number {
    return l < this.count ? this.len[l] : 0;
  }

  /** List `l` as a fresh array (tests, small lists). */
  list(l: number): number[] {
    const out: number[] = [];
    if (l >= this.count) return out;
    for (let i = this.start[l], e = i + this.len[l]; i < e; i++) out.push(this.data[i]);
    return out;
  }

  /** Bytes held. */
  bytes(): number {
    return this.data.byteLength + this.start.byteLength * 3;
  }

  /**
   * A compact copy, list by list, each entry `x` as `map(x)` and left out when that is negative (the layout's
   * renumbering of variant slots); the order within each list is kept.
   */
  mapped(map: (x: number) => number): PostingPool {
    const out = new PostingPool(this.count);
    let total = 0;
    for (let l = 0; l < this.count; l++) total += this.len[l];
    out.data = new Int32Array(Math.max(total, 16));
    let at = 0;
    for (let l = 0; l < this.count; l++) {
      out.start[l] = at;
      for (let i = this.start[l], e = i + this.len[l]; i < e; i++) {
        const x = map(this.data[i]);
        if (x >= 0) out.data[at++] = x;
      }
      out.len[l] = at - out.start[l];
      out.cap[l] = out.len[l];
    }
    out.used = at;
    out.live = at;
    return out;
  }

  /** Gives list `l` room for `room` entries at the end of the pool (compacting first when that pays). */
  private move(l: number, room: number): void {
    if (this.used > 1 << 16 && this.used * 2 > this.live * 5) this.compact();
    const n = this.len[l];
    if (this.used + room > this.data.length) {
      const size = Math.max(this.used + room, this.data.length + (this.data.length >> 1));
      this.data = copyInto(new Int32Array(size), this.data.subarray(0, this.used));
    }
    const at = this.used;
    this.data.copyWithin(at, this.start[l], this.start[l] + n);
    this.start[l] = at;
    this.cap[l] = room;
    this.used += room;
  }

  /**
   * Rewrites every list (in list order) into a fresh array, each with room for half its length again: without that
   * room the next push to every list would move it, and the space left behind would call for the next compaction
   * after a few pushes per list (a quadratic build); with it a list moves again only once it grew by half, so the
   * lists grow by a third of the pool between compactions.
   */
  private compact(): void {
    let size = 0;
    for (let l = 0; l < this.count; l++) size += slack(this.len[l]);
    const data = new Int32Array(Math.max(size + (size >> 2), 1024));
    let at = 0;
    for (let l = 0; l < this.count; l++) {
      const n = this.len[l];
      data.set(this.data.subarray(this.start[l], this.start[l] + n), at);
      this.start[l] = at;
      this.cap[l] = slack(n);
      at += this.cap[l];
    }
    this.data = data;
    this.used = at;
  }
}

/** A list's room after a compaction: its length and half again (none for an empty list). */
function slack(n: number): number {
  return n === 0 ? 0 : n + (n >> 1) + 1;
}

function copyInto(to: Int32Array<ArrayBuffer>, from: Int32Array): Int32Array<ArrayBuffer> {
  to.set(from);
  return to;
}
