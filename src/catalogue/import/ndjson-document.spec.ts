import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { once } from 'node:events';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AppError } from '../../common/http/app-error.js';
import { PRODUCT_BATCH, scanNdjson } from './ndjson-document.js';

v8.setFlagsFromString('--expose-gc');
/** A full collection, so heapUsed is what is still referenced (not garbage waiting for the collector). */
const gc = runInNewContext('gc') as () => void;
const limits = { lineBytes: 2 * 1024 * 1024, lines: 1_000_000 };

const PRODUCTS = 6_000;
const DESCRIPTION = 5_000;

async function writeLines(path: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (const line of lines) {
    bytes += line.length + 1;
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  return bytes;
}

function* catalogue(): Generator<string> {
  yield JSON.stringify({ settings: { default_language: 'en' } });
  yield JSON.stringify({ categories: [{ key: 'red', name: 'Red' }] });
  // one product per line, and a line of three
  for (let i = 0; i < PRODUCTS - 3; i++)
    yield JSON.stringify({ products: [{ key: `p${i}`, title: `P ${i}`, body_html: 'x'.repeat(DESCRIPTION), variants: [{ key: `v${i}`, price: 10 }] }] });
  yield JSON.stringify({ products: [0, 1, 2].map((k) => ({ key: `last${k}`, title: 'L', variants: [] })) });
  yield JSON.stringify({ collections: [{ key: 'all', title: 'All', products: ['p0'] }] });
}

describe('the NDJSON import document (issue 30: memory bounded by a batch, not the body)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ndjson-document-spec-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`reads ${PRODUCTS} products of a 30 MB file in batches; what stays referenced is about one batch`, async () => {
    const path = join(dir, 'big.ndjson');
    const bytes = await writeLines(path, catalogue());
    expect(bytes).toBeGreaterThan(PRODUCTS * DESCRIPTION);
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const scan = await scanNdjson(path, limits);
    expect(scan.products.count).toBe(PRODUCTS);
    expect(Object.keys(scan.document).sort()).toEqual(['categories', 'collections', 'settings']);
    expect(scan.lines.get('collections')).toEqual([PRODUCTS + 1]);

    let seen = 0;
    let batches = 0;
    let peak = 0;
    for await (const batch of scan.products.batches()) {
      expect(batch.offset).toBe(seen);
      expect(batch.items.length).toBeLessThanOrEqual(PRODUCT_BATCH.items);
      seen += batch.items.length;
      batches += 1;
      // here the writer would write the batch: what is referenced now is the batch, not the body
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
    }
    expect(seen).toBe(PRODUCTS);
    // a batch ends at 4 M characters before 500 products of 5,000 characters are read
    expect(batches).toBeGreaterThanOrEqual(Math.ceil((PRODUCTS * DESCRIPTION) / PRODUCT_BATCH.chars));
    // one batch is about 4 MB of text (held as parsed strings); the whole body (30 MB) held would be far above this
    const report = { peakMB: Math.round(peak / 1e5) / 10, bodyMB: Math.round(bytes / 1e5) / 10 };
    expect(peak < 12 * 1024 * 1024 ? 'bounded' : report).toBe('bounded');
  }, 60_000);

  it('names the path in the whole import and the line of a bad product, in the scan and in a batch', async () => {
    const path = join(dir, 'bad.ndjson');
    const product = (key: string, price: unknown) => ({ key, title: key, variants: [{ key: `${key}-v`, price }] });
    await writeLines(path, [
      JSON.stringify({ products: [product('a', 1), product('b', 2)] }),
      JSON.stringify({ settings: {} }),
      JSON.stringify({ products: [product('c', 3), product('d', 'cheap')] }),
    ]);
    const err = await scanNdjson(path, limits).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('products[3].variants[0].price must be a number (line 3)');

    // what the writer finds wrong in a batch is located the same way
    await writeLines(path, [JSON.stringify({ products: [product('a', 1)] }), JSON.stringify({ products: [product('b', 2), product('c', 3)] })]);
    const scan = await scanNdjson(path, limits);
    for await (const batch of scan.products.batches()) {
      const located = batch.locate(AppError.unprocessable('products[2].variants[0].color names no color ("x")')) as AppError;
      expect(located.message).toBe('products[2].variants[0].color names no color ("x") (line 2)');
      expect((batch.locate(AppError.unprocessable('settings.x is bad')) as AppError).message).toBe('settings.x is bad');
    }
  });
});
