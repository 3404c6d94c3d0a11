import type { NextFunction, Request, Response } from 'express';
import { promisify } from 'node:util';
import { crc32Combine } from './crc32-combine.js';
import type { Transform } from 'node:stream';
import { brotliCompress, brotliCompressSync, constants, crc32, createBrotliCompress, createGzip, deflateRaw, deflateRawSync, gzip, gzipSync } from 'node:zlib';

/** Bodies up to this many bytes go out as they are: compressing them saves less than its framing and time cost. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const deflateRawAsync = promisify(deflateRaw);

/** Per-request compression: Brotli at quality 4 (about gzip's speed, smaller output; 11, the default, is for static files). */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
/**
 * Answers up to this size are compressed on the spot, on the main thread, at the fastest level (issue 34): for a
 * checkout or cart answer of a few kB, zlib's asynchronous path (a new stream with its ~256 kB of state, a thread-pool
 * hop and back) cost 80-350 µs of CPU where gzip level 1 in place costs about 25 µs and Brotli quality 1 about 30 µs,
 * for output within 2-8 % of the default levels' size. Larger answers keep the thread pool and the default levels.
 */
export const COMPRESS_NOW_MAX_BYTES = 64 * 1024;
const GZIP_NOW = { level: 1 };
const BROTLI_NOW_QUALITY = 1;
/** Raw deflate ending on a byte boundary (a sync flush, no final block), so that pieces can be laid end to end. */
const PIECE_OPTIONS = { finishFlush: constants.Z_SYNC_FLUSH };
const COMPRESSIBLE = /^(text\/|application\/(json|[a-z0-9.+-]*\+json|javascript|xml|x-ndjson)\b)/i;
const ON = Symbol('compression on');

/**
 * The content coding to use for a client's `Accept-Encoding` (RFC 9110 12.5.3): the highest q-value among the
 * codings offered, `*` standing for any coding not named, q=0 refusing; at equal q the first of `preferred` wins
 * (Brotli before gzip by default). Null: identity.
 */
export function negotiateEncoding(header: string | undefined, preferred: readonly ContentCoding[] = ['br', 'gzip']): ContentCoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) value = Math.min(1, Number(m[1]) || 0);
    }
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    q.set(key, Math.max(value, q.get(key) ?? 0));
  }
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of preferred) {
    const v = q.get(coding) ?? q.get('*') ?? 0;
    if (v > bestQ) [best, bestQ] = [coding, v];
  }
  return best;
}

/** Whether responses of this Content-Type are compressed (JSON and text; not PDFs, images, fonts or archives). */
export function compressibleType(contentType: unknown): boolean {
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType);
}

/**
 * The coding for a whole body about to be sent on `res`, or null to send it as it is. Sets `Vary: Accept-Encoding`
 * on every JSON or text answer while compression is on (a small answer and a large one can share a URL).
 */
export function encodingFor(req: Request, res: Response, length: number, preferred?: readonly ContentCoding[]): ContentCoding | null {
  if (!(res.locals as Record<symbol, unknown>)[ON]) return null;
  if (!compressibleType(res.getHeader('Content-Type'))) return null;
  res.vary('Accept-Encoding');
  if (length <= COMPRESS_MIN_BYTES || res.getHeader('Content-Encoding')) return null;
  if (req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return null;
  if (/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))) return null;
  return negotiateEncoding(req.headers['accept-encoding'], preferred);
}

/**
 * A compressed body carries the ETag of its identity body, made weak: the representations differ in bytes but not
 * in meaning (RFC 9110 8.8.1), `Vary: Accept-Encoding` keeps caches apart, and If-None-Match still matches.
 */
export function weakenEtag(res: Response): void {
  const etag = res.getHeader('ETag');
  if (typeof etag === 'string' && !etag.startsWith('W/')) res.setHeader('ETag', `W/${etag}`);
}

/** `body` compressed now at the fastest level (`COMPRESS_NOW_MAX_BYTES`), or null when it is larger (use `compressBody`). */
export function compressNow(coding: ContentCoding, body: Buffer): Buffer | null {
  if (body.length > COMPRESS_NOW_MAX_BYTES) return null;
  if (coding === 'br')
    return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_NOW_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return gzipSync(body, GZIP_NOW);
}

export async function compressBody(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  const now = compressNow(coding, body);
  if (now) return now;
  if (coding === 'br') return brotliAsync(body, { ...BROTLI_OPTIONS, params: { ...BROTLI_OPTIONS.params, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return gzipAsync(body);
}

/** A compressing stream for a streamed text answer (backpressure preserved: it holds at most zlib's window). */
export function compressStream(coding: ContentCoding, size: number): Transform {
  if (coding === 'br') return createBrotliCompress({ params: { ...BROTLI_OPTIONS.params, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
  return createGzip();
}

/** A body's piece compressed once ahead (a kept answer's bytes): raw deflate ending on a byte boundary (`deflatePiece`). */
export interface DeflatedPiece {
  buf: Buffer;
  deflated: Promise<Buffer>;
  /** The kept CRC-32 of `buf`, when known: a large piece's CRC is then combined, not computed per answer. */
  crc?: number;
}

/** Kept bytes, deflated (`deflatePiece`) and their CRC-32 computed on first use, then reused by every gzip answer. */
export class KeptBytes implements DeflatedPiece {
  private deflating?: Promise<Buffer>;
  private sum?: number;

  constructor(readonly buf: Buffer) {}

  get deflated(): Promise<Buffer> {
    return (this.deflating ??= deflatePiece(this.buf));
  }

  get crc(): number {
    return (this.sum ??= crc32(this.buf));
  }
}

/** From this size a piece's kept CRC is combined (about 2 µs) rather than its bytes summed (about 0.5 µs per KB). */
const COMBINE_MIN_BYTES = 64 * 1024;

/** Raw deflate of `buf` that later pieces can follow (no final block); compress a kept answer once with this. */
export function deflatePiece(buf: Buffer): Promise<Buffer> {
  return deflateRawAsync(buf, PIECE_OPTIONS);
}

/** A request's own run of a gzip member: in place at the fastest level up to `COMPRESS_NOW_MAX_BYTES` (as `compressNow`). */
function deflateRun(buf: Buffer): Promise<Buffer> {
  return buf.length <= COMPRESS_NOW_MAX_BYTES ? Promise.resolve(deflateRawSync(buf, { ...PIECE_OPTIONS, level: 1 })) : deflatePiece(buf);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty final deflate block (fixed Huffman, end of block). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * One gzip member (RFC 1952) of pieces laid end to end: the pieces compressed ahead are used as they are, the runs of
 * other pieces are deflated now. Each deflated run starts without history and ends on a byte boundary, so the
 * concatenation is one valid deflate stream (as pigz builds it); the trailer's CRC-32 and length cover the whole.
 */
export async function gzipPieces(pieces: ReadonlyArray<Buffer | DeflatedPiece>): Promise<Buffer> {
  const runs: Array<Buffer[] | DeflatedPiece> = [];
  for (const p of pieces) {
    if (Buffer.isBuffer(p)) {
      const last = runs[runs.length - 1];
      if (Array.isArray(last)) last.push(p);
      else runs.push([p]);
    } else runs.push(p);
  }
  // a request's own runs (a few hundred bytes around the kept pieces) are deflated in place at the fastest level
  const blocks = await Promise.all(runs.map((r) => (Array.isArray(r) ? deflateRun(Buffer.concat(r)) : r.deflated)));
  let crc = 0;
  let size = 0;
  for (const p of pieces) {
    const buf = Buffer.isBuffer(p) ? p : p.buf;
    crc = !Buffer.isBuffer(p) && buf.length >= COMBINE_MIN_BYTES && p.crc !== undefined ? crc32Combine(crc, p.crc, buf.length) : crc32(buf, crc);
    size += buf.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, ...blocks, FINAL_BLOCK, trailer]);
}

/** Writes a compressed body in place of the identity one: Content-Encoding, its own Content-Length, a weak ETag. */
export function sendCompressed(res: Response, coding: ContentCoding, body: Buffer, send: (b: Buffer) => unknown): void {
  res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', String(body.length));
  weakenEtag(res);
  send(body);
}

/**
 * Compresses JSON and text answers over 1 KB sent whole (`res.send`, so `res.json` and the error envelope too) with
 * the client's preferred coding (`negotiateEncoding`). The ETag is computed on the identity body first, so a
 * conditional request gets its 304 without compressing anything. Streamed answers (exports, the factsheet PDF, theme
 * assets, the storefront demo's files) never pass through here: they are not buffered. `COMPRESSION=off` leaves
 * everything to a proxy.
 */
export function compressionMiddleware(enabled: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!enabled) return next();
    (res.locals as Record<symbol, unknown>)[ON] = true;
    const send = res.send;
    res.send = function compressedSend(this: Response, body?: unknown): Response {
      if (typeof body !== 'string' && !Buffer.isBuffer(body)) return send.call(this, body);
      if (typeof body === 'string' && !this.getHeader('Content-Type')) this.type('html'); // as express would
      const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const coding = encodingFor(req, this, buf.length);
      if (!coding) return send.call(this, body);
      const etagFn = this.app.get('etag fn') as ((b: Buffer, enc?: string) => string) | undefined;
      if (etagFn && !this.getHeader('ETag')) this.setHeader('ETag', etagFn(buf));
      if (req.fresh) return send.call(this, body); // 304
      const now = compressNow(coding, buf);
      if (now) {
        sendCompressed(this, coding, now, (b) => send.call(this, b));
        return this;
      }
      compressBody(coding, buf).then(
        (out) => sendCompressed(this, coding, out, (b) => send.call(this, b)),
        () => send.call(this, body),
      );
      return this;
    };
    next();
  };
}
