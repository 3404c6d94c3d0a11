import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { compressionMiddleware } from '../common/http/compression.js';
import { preserialize, spliceJson } from './preserialized-json.js';

/** An app answering `{data: <kept fragment>}` alone (`/alone`) and beside an undefined member (`/beside`: the general path). */
function app() {
  const kept = preserialize({ items: Array.from({ length: 40 }, (_, i) => ({ id: `id-${i}`, label: `Riesling ${i} «Spätlese»` })) });
  const a = express();
  a.use(compressionMiddleware(true));
  a.get('/alone', (_req, res) => {
    spliceJson(res);
    res.json({ data: kept });
  });
  a.get('/beside', (_req, res) => {
    spliceJson(res);
    res.json({ data: kept, none: undefined });
  });
  return { a, kept };
}

describe('spliceJson: a small kept fragment alone (its whole answer kept)', () => {
  it('answers the same bytes and headers as the general path: identity, gzip, Brotli, 304', async () => {
    const { a, kept } = app();
    const raw = (r: request.Request) =>
      r.buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    for (const encoding of ['identity', 'gzip', 'br']) {
      const [alone, beside] = await Promise.all(['/alone', '/beside'].map((p) => raw(request(a).get(p).set('Accept-Encoding', encoding))));
      expect(alone.status).toBe(200);
      expect((alone.body as Buffer).equals(beside.body as Buffer)).toBe(true);
      for (const h of ['etag', 'content-type', 'content-length', 'content-encoding', 'vary']) expect(alone.headers[h]).toEqual(beside.headers[h]);
    }
    const plain = await request(a).get('/alone').set('Accept-Encoding', 'identity');
    expect(plain.text).toBe(JSON.stringify({ data: kept }));
    // asked twice: the kept whole answer gives the same again; its ETag still answers 304
    const again = await request(a).get('/alone').set('Accept-Encoding', 'identity');
    expect(again.text).toBe(plain.text);
    expect(again.headers.etag).toBe(plain.headers.etag);
    await request(a)
      .get('/alone')
      .set('If-None-Match', plain.headers.etag as string)
      .expect(304);
  });
});
