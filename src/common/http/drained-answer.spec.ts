import { PassThrough } from 'node:stream';
import { describe, expect, it, jest } from '@jest/globals';
import type { Request, Response } from 'express';
import { DRAIN_MAX_BYTES, sendWhileDraining } from './drained-answer.js';

/** A request body as a stream, and a response recording what was written. */
function fakes() {
  const body = new PassThrough();
  const destroy = jest.fn();
  const req = Object.assign(body, { socket: { destroy }, headers: { 'content-length': String(64 * 1024 * 1024) }, complete: false });
  const written: string[] = [];
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 0,
    writableEnded: false,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    setHeader: (k: string, v: string) => (headers[k.toLowerCase()] = v),
    write: (chunk: string) => written.push(chunk),
    end(chunk?: string) {
      if (chunk) written.push(chunk);
      this.writableEnded = true;
    },
  };
  return { body, req: req as unknown as Request, res, asResponse: res as unknown as Response, destroy, written, headers };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('sendWhileDraining', () => {
  it('writes the answer at once with Connection: close and ends it when the body has been read', async () => {
    const f = fakes();
    sendWhileDraining(f.req, f.asResponse, 413, { errors: 'too large' });
    expect(f.res.statusCode).toBe(413);
    expect(f.headers.connection).toBe('close');
    expect(f.written.join('')).toBe('{"errors":"too large"}');
    expect(f.headers['content-length']).toBe(String('{"errors":"too large"}'.length));
    expect(f.res.writableEnded).toBe(false); // still reading what the client sends
    f.body.end(Buffer.alloc(1024));
    await tick();
    expect(f.res.writableEnded).toBe(true);
    expect(f.destroy).not.toHaveBeenCalled();
  });

  it('cuts the connection once more than DRAIN_MAX_BYTES arrived', async () => {
    const f = fakes();
    sendWhileDraining(f.req, f.asResponse, 413, { errors: 'too large' });
    const mb = Buffer.alloc(1024 * 1024);
    for (let sent = 0; sent <= DRAIN_MAX_BYTES; sent += mb.length) f.body.write(mb);
    await tick();
    expect(f.destroy).toHaveBeenCalledTimes(1);
    expect(f.res.writableEnded).toBe(true);
  });

  it('ends at once when the body has already been read to its end', async () => {
    const f = fakes();
    f.body.resume();
    f.body.end();
    await tick();
    sendWhileDraining(f.req, f.asResponse, 401, { errors: 'no token' });
    expect(f.res.writableEnded).toBe(true);
    expect(f.written.join('')).toBe('{"errors":"no token"}');
  });
});
