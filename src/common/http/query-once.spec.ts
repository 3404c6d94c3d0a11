import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { parseQueryOncePerRequest } from './query-once.js';

describe('parseQueryOncePerRequest', () => {
  it('parses the query string once per request, whatever the number of reads; an assignment replaces it', async () => {
    const app = express();
    let parses = 0;
    app.set('query parser', (s: string) => {
      parses += 1;
      return Object.fromEntries(new URLSearchParams(s));
    });
    parseQueryOncePerRequest(app.request);
    app.get('/q', (req, res) => {
      const first = req.query;
      const reads = [req.query, req.query, req.query].every((q) => q === first);
      const before = parses;
      (req as { query: unknown }).query = { replaced: 'yes' };
      res.json({ first, reads, before, after: req.query });
    });
    const a = await request(app).get('/q?a=1&b=two').expect(200);
    expect(a.body).toEqual({ first: { a: '1', b: 'two' }, reads: true, before: 1, after: { replaced: 'yes' } });
    // each request parses its own query string (nothing carried over)
    const b = await request(app).get('/q?a=3').expect(200);
    expect(b.body.first).toEqual({ a: '3' });
    expect(parses).toBe(2);
  });
});
