import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createTestApp, TestApp, TestShop } from '../helpers/test-app.js';

/*
 * Issue 29: an oversized binary theme asset (over 20 MB) is answered 413 with the error envelope, and the client
 * reads it: the answer is sent before the body is read (by Content-Length) or as soon as the count passes the limit
 * (chunked), the rest of the body is drained (a bounded amount) so the client is not cut off while still sending,
 * then the connection is closed.
 */
const MB = 1024 * 1024;
const OVER = 21 * MB;

describe('oversized uploads get a readable 413', () => {
  let t: TestApp;
  let shop: TestShop;
  let base: string;
  let themeId: string;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    t = await createTestApp();
    shop = await t.createShop();
    const server = t.server as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API}`;
    themeId = ((await shop.admin.get('/admin/themes').expect(200)).body.themes as Array<{ id: string }>)[0].id;
    dir = await mkdtemp(join(tmpdir(), 'upload-413-'));
    file = join(dir, 'big.bin');
    await writeFile(file, Buffer.alloc(OVER, 5));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  const url = (key: string) => `${base}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`;
  const stored = async (key: string) => (await shop.admin.get(`/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`)).status;

  function curl(args: string[]): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) =>
      execFile('curl', ['-sS', '-o', '-', '-w', '\n%{http_code}', ...args], { maxBuffer: 4 * MB }, (err, stdout) => {
        if (err) return reject(new Error(`curl failed: ${err.message}`));
        const at = stdout.lastIndexOf('\n');
        resolve({ status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) });
      }),
    );
  }

  /** PUTs with Node's fetch: a Buffer (Content-Length), or a stream of `piece`-sized chunks `pause` ms apart (chunked). */
  function fetchPut(key: string, body: Buffer | { piece: number; pause: number }): Promise<Response> {
    const init: RequestInit & { duplex?: 'half' } = {
      method: 'PUT',
      headers: { Authorization: `Bearer ${shop.admin_token}`, 'Content-Type': 'application/octet-stream' },
    };
    if (Buffer.isBuffer(body)) init.body = body;
    else {
      const piece = new Uint8Array(body.piece).fill(2);
      let sent = 0;
      init.duplex = 'half';
      init.body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= OVER) return controller.close();
          sent += piece.length;
          if (body.pause > 0) await new Promise((r) => setTimeout(r, body.pause));
          controller.enqueue(piece);
        },
      });
    }
    return fetch(url(key), init);
  }
  /** PUTs the 21 MB file with curl (`extra` options before the URL). */
  const curlPut = (key: string, extra: string[] = []) =>
    curl([
      '-X',
      'PUT',
      '-H',
      `Authorization: Bearer ${shop.admin_token}`,
      '-H',
      'Content-Type: application/octet-stream',
      '--data-binary',
      `@${file}`,
      ...extra,
      url(key),
    ]);
  const expectEnvelope = (body: unknown) => expect(body).toEqual({ errors: expect.stringContaining('20 MB') });

  it('Node fetch sending 21 MB with Content-Length reads the 413 and its envelope', async () => {
    const res = await fetchPut('big/fetch.bin', Buffer.alloc(OVER, 1));
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expectEnvelope(await res.json());
    expect(await stored('big/fetch.bin')).toBe(404);
  });

  it('Node fetch streaming 21 MB (chunked) reads the 413 and its envelope', async () => {
    const res = await fetchPut('big/fetch-chunked.bin', { piece: MB, pause: 0 });
    expect(res.status).toBe(413);
    expectEnvelope(await res.json());
    expect(await stored('big/fetch-chunked.bin')).toBe(404);
  });

  it('curl sending 21 MB, with Content-Length and chunked, reads the 413 and its envelope', async () => {
    const sized = await curlPut('big/curl.bin');
    expect(sized.status).toBe(413);
    expectEnvelope(JSON.parse(sized.body));
    const chunked = await curlPut('big/curl-chunked.bin', ['-H', 'Transfer-Encoding: chunked']);
    expect(chunked.status).toBe(413);
    expectEnvelope(JSON.parse(chunked.body));
    expect(await stored('big/curl.bin')).toBe(404);
    expect(await stored('big/curl-chunked.bin')).toBe(404);
  });

  it('slow clients (curl at 8 MB/s; fetch streaming in small pieces) read the 413 and its envelope', async () => {
    const slow = await curlPut('big/curl-slow.bin', ['--limit-rate', '8M']);
    expect(slow.status).toBe(413);
    expectEnvelope(JSON.parse(slow.body));
    const res = await fetchPut('big/fetch-slow.bin', { piece: 256 * 1024, pause: 2 });
    expect(res.status).toBe(413);
    expectEnvelope(await res.json());
  });

  /**
   * Sends `total` bytes (announced by Content-Length) in 1 MB pieces over a plain socket that keeps sending whatever
   * comes back (unlike Node's client, which stops once it has a complete answer with `Connection: close`); what came
   * back, how much was written and whether sending failed.
   */
  function send(key: string, total: number): Promise<{ answer: string; written: number; error: string | null }> {
    const { port } = (t.server as http.Server).address() as AddressInfo;
    let written = 0;
    let answer = '';
    let error: string | null = null;
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (answer += c));
      socket.on('error', (err: Error) => (error ??= err.message));
      socket.on('close', () => resolve({ answer, written, error }));
      const path = `${API}/admin/themes/${themeId}/assets/data?key=${encodeURIComponent(key)}`;
      socket.write(
        `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.admin_token}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${total}\r\n\r\n`,
      );
      const piece = Buffer.alloc(MB, 9);
      void (async () => {
        while (written < total && !socket.destroyed) {
          const n = Math.min(piece.length, total - written);
          written += n;
          if (!socket.write(n === piece.length ? piece : piece.subarray(0, n))) await new Promise((r) => socket.once('drain', r));
        }
        if (!socket.destroyed) socket.end();
      })();
    });
  }
  const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

  it('a client sending all of 21 MB with Content-Length is not cut off while sending (no EPIPE) and reads the 413', async () => {
    const out = await send('big/whole.bin', OVER);
    expect(out.error).toBeNull();
    expect(out.written).toBe(OVER);
    expect(statusOf(out.answer)).toBe(413);
    expect(out.answer).toMatch(/\r\nconnection: close\r\n/i);
    expectEnvelope(bodyOf(out.answer));
    expect(await stored('big/whole.bin')).toBe(404);
  });

  it('a body far over the limit is drained only a bounded amount, then the connection is cut', async () => {
    const out = await send('big/endless.bin', 400 * MB);
    expect(statusOf(out.answer)).toBe(413);
    expectEnvelope(bodyOf(out.answer));
    // the server stopped reading long before the announced 400 MB (32 MB drained, plus what the buffers held)
    expect(out.written).toBeLessThan(200 * MB);
    expect(out.error).not.toBeNull();
  });
});
