import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from './app-error.js';

export const NDJSON_TYPES = ['application/x-ndjson', 'application/jsonl'];

/**
 * Reads an NDJSON body (one JSON value per line, the last one optionally ending with a newline) as it arrives, chunk by chunk: a line is parsed
 * as soon as it is complete, so only the current line is held as text; value i is line i + 1. More than `limit` bytes is 413 (also when a
 * Content-Length announces it); a line that is not JSON is 422 naming its number.
 */
export async function readNdjson(stream: Readable, limit: number, announced?: number): Promise<unknown[]> {
  if (announced !== undefined && announced > limit) throw AppError.payloadTooLarge();
  const decoder = new StringDecoder('utf8');
  const values: unknown[] = [];
  let carry = '';
  let bytes = 0;
  let line = 0;
  const take = (text: string, last = false) => {
    line += 1;
    if (!text.trim()) {
      if (last) return;
      throw AppError.unprocessable(`line ${line} is empty: each line must hold one JSON value`);
    }
    try {
      values.push(JSON.parse(text));
    } catch (err) {
      throw AppError.unprocessable(`line ${line} is not JSON: ${(err as Error).message}`);
    }
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw AppError.payloadTooLarge();
    const parts = (carry + decoder.write(chunk)).split('\n');
    carry = parts.pop() ?? '';
    for (const part of parts) take(part);
  }
  take(carry + decoder.end(), true);
  return values;
}
