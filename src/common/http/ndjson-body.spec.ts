import { describe, expect, it, jest } from '@jest/globals';
import { Readable } from 'node:stream';
import { AppError } from './app-error.js';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LineSplitter, ndjsonLines, parseNdjsonLine, spoolNdjson } from './ndjson-body.js';

/** The lines LineSplitter reports for `body` pushed in chunks of the given sizes (cycled). */
function split(body: Buffer, sizes: number[], maxLineBytes = Number.MAX_SAFE_INTEGER): Array<[string, number, boolean]> {
  const out: Array<[string, number, boolean]> = [];
  const splitter = new LineSplitter(maxLineBytes, (text, line, last) => out.push([text, line, last]));
  let at = 0;
  for (let i = 0; at < body.length; i++) {
    const n = sizes[i % sizes.length];
    splitter.push(body.subarray(at, at + n));
    at += n;
  }
  splitter.end();
  return out;
}

/** The brute-force model: the whole body decoded, then split on newlines. */
const model = (body: Buffer): Array<[string, number, boolean]> => {
  const parts = body.toString('utf8').split('\n');
  return parts.map((text, i) => [text, i + 1, i === parts.length - 1]);
};

const limits = { bodyBytes: 1_000_000, lineBytes: 1_000, lines: 100 };
const caught = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('no error');
};

describe('LineSplitter', () => {
  it('gives the lines of the body whatever the chunking, multi-byte characters cut across chunks included', () => {
    const body = Buffer.from('{"a":1}\n{"t":"Grüner Veltliner — 🍷"}\n\n{"b":[1,2]}\nlast without newline', 'utf8');
    for (const sizes of [[1], [2], [3], [5, 1, 7], [body.length], [1000]]) expect(split(body, sizes)).toEqual(model(body));
    const trailing = Buffer.from('{"a":1}\n{"b":2}\n');
    expect(split(trailing, [4])).toEqual(model(trailing));
    expect(split(Buffer.alloc(0), [1])).toEqual([['', 1, true]]);
  });

  it('agrees with the model on random bodies and random chunkings', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'é', '\n', '€', '{', '"', '🍇', ' '];
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: rnd(60) }, () => alphabet[rnd(alphabet.length)]).join('');
      const body = Buffer.from(text, 'utf8');
      const sizes = Array.from({ length: 1 + rnd(4) }, () => 1 + rnd(9));
      expect(split(body, sizes)).toEqual(model(body));
    }
  });

  it('refuses a line over the limit with 413 naming its number, also when it spans chunks', () => {
    const body = Buffer.from(`{"a":1}\n{"b":"${'x'.repeat(50)}"}\n{"c":3}\n`);
    expect(() => split(body, [7], 40)).toThrow(/^line 2 is longer than 40 bytes \(IMPORT_NDJSON_MAX_LINE_BYTES\)$/);
    try {
      split(body, [1000], 40);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(413);
    }
    // exactly at the limit is fine; the newline does not count
    expect(split(Buffer.from(`${'y'.repeat(40)}\n`), [3], 40)[0][0]).toHaveLength(40);
  });

  it('is linear: one 8 MB line in 1 KB chunks is joined once (re-joining per chunk would copy gigabytes)', () => {
    const line = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const body = Buffer.concat([line, Buffer.from('\n{}')]);
    // the bytes the splitter copies into joined buffers: each line's once, not once per chunk
    const concat = jest.spyOn(Buffer, 'concat');
    let out: Array<[string, number, boolean]>;
    try {
      out = split(body, [1024]);
      const copied = concat.mock.results.reduce((n, r) => n + (r.value as Buffer).length, 0);
      expect(copied).toBe(line.length);
    } finally {
      concat.mockRestore();
    }
    expect(out.map(([t]) => t.length)).toEqual([line.length, 2]);
  });
});

/** The values of the lines of a spooled body (the spool file read back through ndjsonLines and parseNdjsonLine). */
async function spoolAndRead(chunks: string[], l = limits, announced?: number): Promise<unknown[]> {
  const spooled = await spoolNdjson(Readable.from(chunks.map((c) => Buffer.from(c))), l, announced);
  let dir = '';
  try {
    return await spooled.read(async (path) => {
      dir = dirname(path);
      const values: unknown[] = [];
      for await (const line of ndjsonLines(path, l)) values.push(parseNdjsonLine(line));
      // a removal asked for while it is read waits for the reader
      void spooled.remove();
      expect(existsSync(path)).toBe(true);
      let again = 0;
      for await (const line of ndjsonLines(path, l)) again += line.text.length > 0 ? 1 : 0;
      expect(again).toBe(values.length);
      return values;
    });
  } finally {
    await spooled.remove();
    expect(existsSync(dir)).toBe(false);
  }
}

describe('spoolNdjson, ndjsonLines, parseNdjsonLine', () => {
  it('spools the bytes to a private temporary file and reads the lines back; the last line may end with a newline or not', async () => {
    expect(await spoolAndRead(['{"a":1}\n[2]\n', '3'])).toEqual([{ a: 1 }, [2], 3]);
    expect(await spoolAndRead(['{"a":1}\n'])).toEqual([{ a: 1 }]);
    const spooled = await spoolNdjson(Readable.from([Buffer.from('{"a":1}\n')]), limits);
    // what the idempotency layer hashes: the digest and size of the bytes, never the path
    expect(JSON.parse(JSON.stringify(spooled))).toEqual({ sha256: createHash('sha256').update('{"a":1}\n').digest('hex'), bytes: 8 });
    expect(await spooled.read(async (path) => statSync(path).mode & 0o777)).toBe(0o600);
    await spooled.remove();
    await expect(spooled.read(async () => 1)).rejects.toThrow('the spooled body was removed');
  });

  it('422 names an empty or non-JSON line; 413 past the body, a line or the line count, leaving no file behind', async () => {
    expect((await caught(spoolAndRead(['1\n\n2']))).message).toBe('line 2 is empty: each line must hold one JSON value');
    const notJson = await caught(spoolAndRead(['1\n{oops\n']));
    expect([notJson.status, notJson.message.startsWith('line 2 is not JSON')]).toEqual([422, true]);
    // a private TMPDIR, so what is left behind is this test's
    const own = mkdtempSync(join(tmpdir(), 'spool-spec-'));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = own;
    const tooMany = await caught(spoolNdjson(Readable.from([Buffer.from('1\n'.repeat(101))]), limits));
    expect([tooMany.status, tooMany.message]).toEqual([413, 'the body has more than 100 lines (IMPORT_NDJSON_MAX_LINES)']);
    expect((await spoolAndRead(['1\n'.repeat(100)])).length).toBe(100);
    const longLine = await caught(spoolNdjson(Readable.from([Buffer.from(`1\n2\n"${'z'.repeat(600)}`), Buffer.from(`${'z'.repeat(600)}"\n`)]), limits));
    expect([longLine.status, longLine.message]).toEqual([413, 'line 3 is longer than 1000 bytes (IMPORT_NDJSON_MAX_LINE_BYTES)']);
    expect((await caught(spoolNdjson(Readable.from([Buffer.from('1\n')]), limits, 2_000_000))).status).toBe(413);
    expect((await caught(spoolNdjson(Readable.from([Buffer.from('1\n')]), { ...limits, bodyBytes: 1 }))).status).toBe(413);
    process.env.TMPDIR = tmp;
    expect(readdirSync(own)).toEqual([]);
    rmSync(own, { recursive: true });
  });
});
