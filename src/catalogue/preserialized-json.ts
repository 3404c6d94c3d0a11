import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { DeflatedPiece, encodingFor, gzipPieces, compressBody, KeptBytes, sendCompressed } from '../common/http/compression.js';

interface Fragment {
  buf: Buffer;
  /** A request's fragment written from several kept buffers in order (`serializedArray`); `buf` is then empty. */
  parts?: readonly KeptBytes[];
  /** sha1 of the fragment, for the response's ETag without hashing the fragment again. */
  digest: string;
  /** A kept answer's bytes (not one request's): compressed once, on the first compressed response that carries them. */
  kept: boolean;
  /** A kept fragment's bytes for gzip answers: deflated and summed (CRC-32) once, on the first (`keptPiece`). */
  piece?: KeptBytes;
  /** A small kept fragment's whole answer as its only member (`{"<key>":<buf>}`), made once (`wholeAnswer`). */
  whole?: Whole;
}

interface Whole {
  key: string;
  head: Buffer;
  tail: Buffer;
  /** head + buf + tail: written as one buffer. */
  body: Buffer;
  etag: string;
}

/** Kept fragments up to this size also keep their whole one-member answer (a copy): suggestions, not facet sets. */
const WHOLE_MAX_BYTES = 16 * 1024;

const fragments = new WeakMap<object, Fragment>();

/**
 * Serializes a (cached, never mutated) value once: a response whose top-level member is this very object gets
 * these bytes spliced in verbatim by `spliceJson`. The storefront facet set of a large category is hundreds of
 * kilobytes of JSON; serializing it once per cache entry instead of once per request is most of a cached
 * request's cost.
 */
export function preserialize<T extends object>(value: T): T {
  return withJson(value, JSON.stringify(value));
}

/** Registers `buf` (which must be exactly the UTF-8 of `JSON.stringify(value)`) as the serialized form of `value`. */
export function withBuffer<T extends object>(value: T, buf: Buffer, kept = true): T {
  fragments.set(value, { buf, digest: createHash('sha1').update(buf).digest('base64'), kept });
  return value;
}

/**
 * A JSON array known only by its bytes (the storefront list's products, written from cached bytes): an empty array
 * in JavaScript whose `toJSON` parses the bytes, so that `spliceJson` writes them as they are and any other
 * serializer still gets the same JSON. Only for values that nothing reads before the response.
 */
export function serializedArray<T>(parts: readonly KeptBytes[], digest: string): T[] {
  const list: T[] = [];
  Object.defineProperty(list, 'toJSON', { value: () => JSON.parse(Buffer.concat(parts.map((p) => p.buf)).toString('utf8')) as unknown });
  // the parts are written as they are: no copy into one buffer per response (list-json.ts, `filledListJson`)
  fragments.set(list, { buf: EMPTY, parts, digest, kept: false });
  return list;
}

const EMPTY = Buffer.alloc(0);

/** Registers `json` (which must be exactly `JSON.stringify(value)`) as the serialized form of `value` (see `preserialize`). */
export function withJson<T extends object>(value: T, json: string): T {
  fragments.set(value, { buf: Buffer.from(json, 'utf8'), digest: createHash('sha1').update(json).digest('base64'), kept: true });
  return value;
}

/**
 * Makes `res.json` (which the envelope's reply goes through) write the body with pre-serialized top-level members
 * spliced in. The bytes are exactly those of `JSON.stringify(body)`; the weak ETag is a sha1 over the other
 * members and the fragments' digests, so it still changes whenever the body does.
 */
export function spliceJson(res: Response): void {
  const original = res.json;
  res.json = function json(this: Response, body: unknown) {
    const app = this.app;
    if (!body || typeof body !== 'object' || Array.isArray(body) || app.get('json replacer') || app.get('json spaces') || app.get('json escape'))
      return original.call(this, body);
    const members = Object.entries(body as Record<string, unknown>);
    if (!members.some(([, v]) => v !== null && typeof v === 'object' && fragments.has(v))) return original.call(this, body);
    const only = members.length === 1 ? fragments.get(members[0][1] as object) : undefined;
    if (only?.kept && only.buf.length <= WHOLE_MAX_BYTES) return sendWhole(this, wholeAnswer(only, members[0][0]), only);
    const parts: Buffer[] = [];
    // the gzip pieces are made only when gzip is chosen: a kept fragment's deflate is never paid for an identity answer
    const pieces: Array<Buffer | Fragment | KeptBytes> = [];
    const hash = createHash('sha1');
    let text = '{';
    let first = true;
    for (const [k, v] of members) {
      const frag = v !== null && typeof v === 'object' ? fragments.get(v) : undefined;
      if (frag) {
        text += `${first ? '' : ','}${JSON.stringify(k)}:`;
        const head = Buffer.from(text, 'utf8');
        if (frag.parts) {
          parts.push(head);
          for (const p of frag.parts) parts.push(p.buf);
          pieces.push(head, ...frag.parts);
        } else {
          parts.push(head, frag.buf);
          pieces.push(head, frag.kept ? frag : frag.buf);
        }
        hash.update(text).update(frag.digest);
        text = '';
        first = false;
        continue;
      }
      const value = JSON.stringify(v);
      if (value === undefined) continue; // as JSON.stringify leaves out undefined members
      text += `${first ? '' : ','}${JSON.stringify(k)}:${value}`;
      first = false;
    }
    text += '}';
    const tail = Buffer.from(text, 'utf8');
    parts.push(tail);
    pieces.push(tail);
    hash.update(text);
    const length = parts.reduce((n, b) => n + b.length, 0);
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json; charset=utf-8');
    if (app.get('etag') && !this.get('ETag')) this.set('ETag', `W/"${length.toString(16)}-${hash.digest('base64').slice(0, 27)}"`);
    // the rare cases (HEAD, 304, no-body statuses) go through express as usual
    if (this.req.method === 'HEAD' || this.req.fresh || this.statusCode === 204 || this.statusCode === 304) return this.send(Buffer.concat(parts));
    // gzip first here (at equal q): a kept fragment's deflate is spliced into the member, Brotli streams do not splice
    const coding = encodingFor(this.req, this, length, ['gzip', 'br']);
    if (coding) {
      const out =
        coding === 'gzip'
          ? gzipPieces(pieces.map((p): Buffer | DeflatedPiece => (Buffer.isBuffer(p) || p instanceof KeptBytes ? p : keptPiece(p))))
          : compressBody(coding, Buffer.concat(parts));
      out.then(
        (body) => sendCompressed(this, coding, body, (b) => this.end(b)),
        (err: unknown) => this.destroy(err as Error),
      );
      return this;
    }
    // otherwise the parts go out as they are: the shared fragment is not copied into a fresh buffer per request
    this.setHeader('Content-Length', String(length));
    this.cork();
    for (const part of parts) this.write(part);
    this.end();
    process.nextTick(() => this.uncork());
    return this;
  };
}

/** `{"<key>":<fragment>}` as bytes with its ETag (as `spliceJson` computes them), made once per fragment and key. */
function wholeAnswer(frag: Fragment, key: string): Whole {
  if (frag.whole?.key === key) return frag.whole;
  const text = `{${JSON.stringify(key)}:`;
  const head = Buffer.from(text, 'utf8');
  const tail = Buffer.from('}', 'utf8');
  const body = Buffer.concat([head, frag.buf, tail]);
  const digest = createHash('sha1').update(text).update(frag.digest).update('}').digest('base64');
  frag.whole = { key, head, tail, body, etag: `W/"${body.length.toString(16)}-${digest.slice(0, 27)}"` };
  return frag.whole;
}

/** `spliceJson`'s answer for a small kept fragment alone: the same headers and bytes, from its kept whole answer. */
function sendWhole(res: Response, whole: Whole, frag: Fragment): Response {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json; charset=utf-8');
  if (res.app.get('etag') && !res.get('ETag')) res.set('ETag', whole.etag);
  if (res.req.method === 'HEAD' || res.req.fresh || res.statusCode === 204 || res.statusCode === 304) return res.send(whole.body);
  const coding = encodingFor(res.req, res, whole.body.length, ['gzip', 'br']);
  if (coding) {
    const out = coding === 'gzip' ? gzipPieces([whole.head, keptPiece(frag), whole.tail]) : compressBody(coding, whole.body);
    out.then(
      (body) => sendCompressed(res, coding, body, (b) => res.end(b)),
      (err: unknown) => res.destroy(err as Error),
    );
    return res;
  }
  res.setHeader('Content-Length', String(whole.body.length));
  res.end(whole.body);
  return res;
}

/** How many kept fragments were compressed (each once, however many answers carry it); read by the tests. */
export const keptCompressions = { count: 0 };

function keptPiece(frag: Fragment): DeflatedPiece {
  if (!frag.piece) {
    keptCompressions.count += 1;
    frag.piece = new KeptBytes(frag.buf);
  }
  return frag.piece;
}
