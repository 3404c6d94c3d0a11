import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressBody, compressNow, COMPRESS_NOW_MAX_BYTES, deflatePiece, gzipPieces, KeptBytes, negotiateEncoding } from './compression.js';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'], // br preferred at equal q
    ['gzip, deflate, br;q=0.5', 'gzip'], // q-values honoured
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['deflate', null],
    ['gzip;q=0.001', 'gzip'],
  ])('%j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it('takes the caller preference at equal q', () => {
    expect(negotiateEncoding('br, gzip', ['gzip', 'br'])).toBe('gzip');
    expect(negotiateEncoding('br;q=1, gzip;q=0.9', ['gzip', 'br'])).toBe('br');
  });
});

describe('gzipPieces', () => {
  it('lays deflated pieces end to end into one gzip member that decodes to the concatenation', async () => {
    const text = (s: string, n: number) => Buffer.from(s.repeat(n), 'utf8');
    const kept = text('{"id":"a","name":"Riesling ü","count":12},', 500);
    const pieces = [
      Buffer.from('{"products":'),
      text('[1,2,3]', 3),
      { buf: kept, deflated: deflatePiece(kept) },
      Buffer.from(',"x":'),
      randomBytes(3000), // incompressible run
      { buf: kept, deflated: deflatePiece(kept) },
      Buffer.from('}'),
    ];
    const out = await gzipPieces(pieces);
    const whole = Buffer.concat(pieces.map((p) => (Buffer.isBuffer(p) ? p : p.buf)));
    expect(gunzipSync(out).equals(whole)).toBe(true);
    expect(out.length).toBeLessThan(whole.length / 2);
  });

  it('splices kept bytes (their deflate and CRC kept), large ones with their CRC combined, small ones summed', async () => {
    const large = new KeptBytes(Buffer.from('{"facet":"Spätburgunder","count":3},'.repeat(4000))); // over 64 KB
    const small = new KeptBytes(Buffer.from('{"id":"p1","title":"Riesling"}'));
    const comma = new KeptBytes(Buffer.from(','));
    const pieces = [Buffer.from('{"a":'), large, Buffer.from(',"b":['), small, comma, small, Buffer.from(']}')];
    const whole = Buffer.concat(pieces.map((p) => (Buffer.isBuffer(p) ? p : p.buf)));
    expect(gunzipSync(await gzipPieces(pieces)).equals(whole)).toBe(true);
    // the kept ones again: the same member (their kept deflates and CRCs reused)
    expect(gunzipSync(await gzipPieces(pieces)).equals(whole)).toBe(true);
    expect(large.deflated).toBe(large.deflated);
  });

  it('handles empty pieces and a lone kept piece', async () => {
    const kept = Buffer.from('x'.repeat(5000));
    expect(gunzipSync(await gzipPieces([{ buf: kept, deflated: deflatePiece(kept) }])).equals(kept)).toBe(true);
    expect(gunzipSync(await gzipPieces([Buffer.alloc(0)])).length).toBe(0);
  });
});

describe('compressNow (issue 34: small answers compressed in place, at the fastest level)', () => {
  const json = Buffer.from(JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Barolo DOCG Riserva ${i}`, price: 39.9 + i }))));

  it('gzip level 1 and Brotli that decode to the body, up to COMPRESS_NOW_MAX_BYTES; null above it', () => {
    const gz = compressNow('gzip', json)!;
    expect(gunzipSync(gz).equals(json)).toBe(true);
    expect(gz[8]).toBe(4); // the gzip header's XFL: 4 = the fastest level
    expect(brotliDecompressSync(compressNow('br', json)!).equals(json)).toBe(true);
    expect(compressNow('gzip', Buffer.alloc(COMPRESS_NOW_MAX_BYTES, 'a'))).not.toBeNull();
    expect(compressNow('gzip', Buffer.alloc(COMPRESS_NOW_MAX_BYTES + 1, 'a'))).toBeNull();
  });

  it('compressBody takes the thread pool and the default level only above it', async () => {
    expect((await compressBody('gzip', json))[8]).toBe(4);
    const large = Buffer.from(JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ id: i, title: `Barolo DOCG Riserva ${i}` }))));
    expect(large.length).toBeGreaterThan(COMPRESS_NOW_MAX_BYTES);
    const out = await compressBody('gzip', large);
    expect(out[8]).toBe(0); // the default level
    expect(gunzipSync(out).equals(large)).toBe(true);
  });
});
