import { createHash, randomBytes } from 'node:crypto';
import type { VariantStock } from '../extensions/index.js';
import { KeptBytes } from '../common/http/compression.js';
import type { ProductListDto } from './dto/catalogue.dto.js';

/**
 * A product's storefront list JSON as bytes with holes for the live stock: the product's `available` and each
 * variant's `available` and `inventory_quantity`. This is what the product JSON cache keeps for the list projection:
 * one buffer per product instead of an object graph (nothing for the garbage collector to trace, and no
 * `JSON.stringify` per response), filled at each response with the index's current stock.
 */
export interface ListJson {
  /** UTF-8 of the JSON without the hole values. */
  text: Buffer;
  /** Byte offset in `text` of each hole, ascending. */
  cuts: Int32Array;
  /** What goes into each hole: -1 the product's `available`, 2k variant k's `available`, 2k+1 its `inventory_quantity`. */
  kinds: Int32Array;
  /** The values as loaded (used when the index does not know a variant). */
  defaults: string[];
  variantIds: string[];
  /**
   * The bytes of the last fill and the hole values they were filled with: a product's stock rarely changes between
   * two reads, so a page reuses them instead of writing the product again (`filledListJson`). Replaced, never
   * changed: a response still writing the previous bytes keeps them.
   */
  filled?: FilledJson;
}

/** A product's list JSON filled with one set of stock values. */
export interface FilledJson {
  /** The hole values, joined. */
  key: string;
  buf: Buffer;
  /** sha1 of `buf` (for the page's ETag without hashing the product's bytes per response). */
  digest: Buffer;
  /** `buf` for a gzip answer: deflated on its first one, then spliced into every other. */
  piece: KeptBytes;
}

const NONCE = randomBytes(6).toString('hex');
const HOLE = new RegExp(`"\\\\u0000${NONCE}:(-?\\d+)"`, 'g');
const mark = (k: number) => `\u0000${NONCE}:${k}`;

/** The list JSON of `p` with its stock values as holes; `JSON.parse` of a filled one equals `p` with that stock. */
export function toListJson(p: ProductListDto): ListJson {
  const marked = {
    ...p,
    available: mark(-1),
    variants: p.variants.map((v, i) => ({ ...v, available: mark(2 * i), inventory_quantity: mark(2 * i + 1) })),
  };
  const json = JSON.stringify(marked);
  const pieces: string[] = [];
  const cuts: number[] = [];
  const kinds: number[] = [];
  const defaults: string[] = [];
  let last = 0;
  let bytes = 0;
  for (const m of json.matchAll(HOLE)) {
    const piece = json.slice(last, m.index);
    pieces.push(piece);
    bytes += Buffer.byteLength(piece, 'utf8');
    cuts.push(bytes);
    const kind = Number(m[1]);
    kinds.push(kind);
    const v = kind < 0 ? null : p.variants[kind >> 1];
    defaults.push(JSON.stringify(v === null ? p.available : kind % 2 === 0 ? v.available : v.inventory_quantity));
    last = m.index + m[0].length;
  }
  pieces.push(json.slice(last));
  return {
    text: Buffer.from(pieces.join(''), 'utf8'),
    cuts: Int32Array.from(cuts),
    kinds: Int32Array.from(kinds),
    defaults,
    variantIds: p.variants.map((v) => v.id),
  };
}

/** The list JSON of `p` as it is, without holes (a product already filled with the live stock). */
export function fixedListJson(p: ProductListDto): ListJson {
  const none = new Int32Array(0);
  return { text: Buffer.from(JSON.stringify(p), 'utf8'), cuts: none, kinds: none, defaults: [], variantIds: p.variants.map((v) => v.id) };
}

/** Bytes a `ListJson` holds (for the cache budget): its text twice, once with holes and once filled. */
export function listJsonBytes(j: ListJson): number {
  return 2 * j.text.length + j.cuts.byteLength * 2 + 64 * j.variantIds.length + 192;
}

/**
 * `j` filled with the live stock (`stock` by variant id; a variant the index does not know keeps its loaded values):
 * the kept fill when the values are the same, else a new one, kept in its place.
 *
 * Why kept (session 21, issue 35): a page written anew per response was a 68 KB buffer per search answer, memory
 * outside V8's heap that the collector only counts; at 1,800 answers a second it started a full collection every
 * half second ("external memory pressure", a 5–12 ms pause each), which was most of the searches' p99.
 */
export function filledListJson(j: ListJson, stock: Map<string, VariantStock>): FilledJson {
  if (j.cuts.length === 0) return (j.filled ??= filled('', j.text));
  const values = holeValues(j, stock);
  const key = values.join(' ');
  if (j.filled?.key === key) return j.filled;
  let size = j.text.length;
  for (const v of values) size += v.length; // ASCII
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  let prev = 0;
  for (let h = 0; h < j.cuts.length; h++) {
    pos += j.text.copy(out, pos, prev, j.cuts[h]);
    pos += out.write(values[h], pos, 'latin1');
    prev = j.cuts[h];
  }
  pos += j.text.copy(out, pos, prev);
  j.filled = filled(key, out.subarray(0, pos));
  return j.filled;
}

function filled(key: string, buf: Buffer): FilledJson {
  return { key, buf, digest: createHash('sha1').update(buf).digest(), piece: new KeptBytes(buf) };
}

const OPEN = new KeptBytes(Buffer.from('['));
const COMMA = new KeptBytes(Buffer.from(','));
const CLOSE = new KeptBytes(Buffer.from(']'));

/**
 * Products' list JSON as one JSON array, each filled with the live stock (`filledListJson`), as the kept bytes to
 * write one after the other (nothing copied; a gzip answer splices their kept deflates), with a digest of the whole:
 * the sha1 of the products' own digests in order.
 */
export function listArrayParts(items: ListJson[], stock: Map<string, VariantStock>): { parts: KeptBytes[]; digest: string } {
  const parts: KeptBytes[] = [OPEN];
  const hash = createHash('sha1');
  items.forEach((j, i) => {
    const filled = filledListJson(j, stock);
    if (i > 0) parts.push(COMMA);
    parts.push(filled.piece);
    hash.update(filled.digest);
  });
  parts.push(CLOSE);
  return { parts, digest: hash.digest('base64') };
}

/** `listArrayParts` as one buffer (the specs compare it with `JSON.stringify`). */
export function writeListArray(items: ListJson[], stock: Map<string, VariantStock>): Buffer {
  return Buffer.concat(listArrayParts(items, stock).parts.map((p) => p.buf));
}

/** One product's list JSON filled with the live stock, parsed (for the lists that change it further). */
export function parseListJson(j: ListJson, stock: Map<string, VariantStock>): ProductListDto {
  return JSON.parse(filledListJson(j, stock).buf.toString('utf8')) as ProductListDto;
}

function holeValues(j: ListJson, stock: Map<string, VariantStock>): string[] {
  const live = j.variantIds.map((id) => stock.get(id));
  const anyAvailable = live.some((s, k) => (s ? s.available : j.defaults[j.kinds.indexOf(2 * k)] === 'true'));
  const out: string[] = [];
  for (let h = 0; h < j.kinds.length; h++) {
    const kind = j.kinds[h];
    const s = kind < 0 ? undefined : live[kind >> 1];
    if (kind < 0) out.push(anyAvailable ? 'true' : 'false');
    else if (!s) out.push(j.defaults[h]);
    else out.push(kind % 2 === 0 ? (s.available ? 'true' : 'false') : JSON.stringify(s.onHand));
  }
  return out;
}
