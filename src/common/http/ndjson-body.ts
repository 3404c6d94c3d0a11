import type { Readable } from 'node:stream';
import { AppError } from './app-error.js';

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
 * Reads an NDJSON body (one JSON value per line, the last one optionally ending with a newline) as it arrives: a line
 * is parsed as soon as it is complete (LineSplitter), so only the current line is held as text; value i is line i + 1.
 * Past `limits` it is 413 (the body, a line naming its number, the number of lines); a line that is not JSON is 422
 * naming its number.
 */
export async function readNdjson(stream: Readable, limits: NdjsonLimits, announced?: number): Promise<unknown[]> {
  if (announced !== undefined && announced > limits.bodyBytes) throw AppError.payloadTooLarge();
  const values: unknown[] = [];
  const splitter = new LineSplitter(limits.lineBytes, (text, line, last) => {
    if (!text.trim()) {
      if (last) return;
      throw AppError.unprocessable(`line ${line} is empty: each line must hold one JSON value`);
    }
    if (line > limits.lines) throw AppError.payloadTooLarge(`the body has more than ${limits.lines} lines (IMPORT_NDJSON_MAX_LINES)`);
    try {
      values.push(JSON.parse(text));
    } catch (err) {
      throw AppError.unprocessable(`line ${line} is not JSON: ${(err as Error).message}`);
    }
  });
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limits.bodyBytes) throw AppError.payloadTooLarge();
    splitter.push(chunk);
  }
  splitter.end();
  return values;
}
