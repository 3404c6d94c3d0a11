import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { AppError } from './app-error.js';
import { checkJsonShape } from './json-shape.js';

export const NDJSON_TYPES = ['application/x-ndjson', 'application/jsonl'];

/** The bounds of one NDJSON body. */
export interface NdjsonLimits {
  /** Bytes of the whole body; more is 413 (also when a Content-Length announces it). */
  bodyBytes: number;
  /** Bytes of one line, its newline aside (`IMPORT_NDJSON_MAX_LINE_BYTES`); a longer line is 413 naming its number. */
  lineBytes: number;
  /** Lines of the body (`IMPORT_NDJSON_MAX_LINES`); more is 413. */
  lines: number;
}

/**
 * Cuts a byte stream into lines in linear time: each chunk is scanned once for `\n` (a byte that never occurs inside
 * a UTF-8 sequence, so lines are cut on bytes and decoded whole), and the current line's pieces are joined once, when
 * it ends. Only the current line is held (at most `maxLineBytes` plus the chunk it ends in); `onLine` gets each line's
 * text and number (from 1), the last one with `last` set (it may be empty: a body ending with a newline).
 */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private length = 0;
  private line = 1;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (text: string, line: number, last: boolean) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      const end = newline === -1 ? chunk.length : newline;
      this.length += end - from;
      if (this.length > this.maxLineBytes)
        throw AppError.payloadTooLarge(`line ${this.line} is longer than ${this.maxLineBytes} bytes (IMPORT_NDJSON_MAX_LINE_BYTES)`);
      if (end > from) this.pieces.push(chunk.subarray(from, end));
      if (newline === -1) return;
      this.emit(false);
      from = newline + 1;
    }
  }

  end(): void {
    this.emit(true);
  }

  private emit(last: boolean): void {
    const text = this.pieces.length === 1 ? this.pieces[0].toString('utf8') : Buffer.concat(this.pieces, this.length).toString('utf8');
    this.pieces = [];
    this.length = 0;
    this.onLine(text, this.line, last);
    this.line += 1;
  }
}

/**
 * An NDJSON request body spooled to a temporary file (`spoolNdjson`): what the route reads instead of a parsed body,
 * so a 50 MB import is never held in memory. Its enumerable members are a digest of the bytes and their count (what
 * the idempotency layer hashes as "the body"); the file is removed when the response ends (`remove`).
 */
export class SpooledNdjson {
  readonly #path: string;
  #readers = 0;
  #unwanted = false;

  constructor(
    path: string,
    readonly sha256: string,
    readonly bytes: number,
  ) {
    this.#path = path;
  }

  /** Runs `work` on the file's path; a `remove()` meanwhile waits until it is done. */
  async read<T>(work: (path: string) => Promise<T>): Promise<T> {
    if (this.#unwanted) throw new Error('the spooled body was removed');
    this.#readers += 1;
    try {
      return await work(this.#path);
    } finally {
      this.#readers -= 1;
      if (this.#unwanted && this.#readers === 0) await this.delete();
    }
  }

  /** Deletes the file and its directory, at once or when its last reader is done (idempotent). */
  async remove(): Promise<void> {
    this.#unwanted = true;
    if (this.#readers === 0) await this.delete();
  }

  private async delete(): Promise<void> {
    await rm(dirname(this.#path), { recursive: true, force: true });
  }
}

/**
 * Writes an NDJSON body to a new temporary file as it arrives (honouring the file's backpressure), checking `limits` on
 * the bytes alone (no line is decoded or held): past them it is 413 (the body, a line naming its number, the number of
 * lines) and the file is gone. Lines are parsed later, from the file (`ndjsonLines`).
 */
export async function spoolNdjson(stream: Readable, limits: NdjsonLimits, announced?: number): Promise<SpooledNdjson> {
  if (announced !== undefined && announced > limits.bodyBytes) throw AppError.payloadTooLarge();
  const dir = await mkdtemp(join(tmpdir(), 'shop-ndjson-'));
  const path = join(dir, 'body.ndjson');
  const spooled = (digest: string, bytes: number) => new SpooledNdjson(path, digest, bytes);
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let bytes = 0;
  let line = 1;
  let lineBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limits.bodyBytes) throw AppError.payloadTooLarge();
      for (let from = 0; ;) {
        const newline = chunk.indexOf(0x0a, from);
        lineBytes += (newline === -1 ? chunk.length : newline) - from;
        if (lineBytes > limits.lineBytes)
          throw AppError.payloadTooLarge(`line ${line} is longer than ${limits.lineBytes} bytes (IMPORT_NDJSON_MAX_LINE_BYTES)`);
        if (newline === -1) break;
        // a line past the limit counts once it has content (a body may end with a newline)
        line += 1;
        lineBytes = 0;
        from = newline + 1;
        if (line > limits.lines && from < chunk.length) throw tooManyLines(limits.lines);
      }
      if (line > limits.lines && lineBytes > 0) throw tooManyLines(limits.lines);
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    return spooled(hash.digest('hex'), bytes);
  } catch (err) {
    out.destroy();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

const tooManyLines = (max: number) => AppError.payloadTooLarge(`the body has more than ${max} lines (IMPORT_NDJSON_MAX_LINES)`);

/** One line of an NDJSON file: its text and number (from 1). */
export interface NdjsonLine {
  text: string;
  line: number;
}

/**
 * The lines of an NDJSON file, read in chunks and cut by `LineSplitter` (linear; only the current line and the lines
 * of one chunk are held). A blank last line (a file ending with a newline) is skipped; past `limits` it is 413.
 */
export async function* ndjsonLines(path: string, limits: Pick<NdjsonLimits, 'lineBytes' | 'lines'>): AsyncGenerator<NdjsonLine> {
  let ready: NdjsonLine[] = [];
  const splitter = new LineSplitter(limits.lineBytes, (text, line, last) => {
    if (last && !text.trim()) return;
    if (line > limits.lines) throw tooManyLines(limits.lines);
    ready.push({ text, line });
  });
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    splitter.push(chunk);
    const lines = ready;
    ready = [];
    yield* lines;
  }
  splitter.end();
  yield* ready;
}

/** A line's JSON value: 422 naming the line when it is empty or not JSON, or too deep or holding NUL (json-shape.ts). */
export function parseNdjsonLine({ text, line }: NdjsonLine): unknown {
  if (!text.trim()) throw AppError.unprocessable(`line ${line} is empty: each line must hold one JSON value`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw AppError.unprocessable(`line ${line} is not JSON: ${(err as Error).message}`);
  }
  checkJsonShape(value, `line ${line}`);
  return value;
}
