import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helpers/test-app.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP request (binary bodies, chunked uploads, exact headers) against the test app's server. */
export async function raw(
  t: TestApp,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer; chunks?: () => AsyncIterable<Buffer> } = {},
): Promise<RawResponse> {
  const server = t.server as http.Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<RawResponse>((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body) headers['Content-Length'] = headers['Content-Length'] ?? String(options.body.length);
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    (async () => {
      if (options.body) req.write(options.body);
      if (options.chunks) {
        for await (const chunk of options.chunks()) {
          if (req.destroyed) break;
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
      }
      req.end();
    })().catch(reject);
  });
}
