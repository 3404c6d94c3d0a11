import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { startTracing } from '../../src/observability/tracing-sdk.js';
import { API, createTestApp, TestApp } from '../helpers/test-app.js';

/**
 * Issue 30, traces carry no secrets: the SDK as production starts it (exporter from the OTLP environment, http/json)
 * sends to an in-process OTLP receiver; what arrives holds no value of a secret-like query parameter, in server spans
 * (`url.query`) or client spans (`url.full`).
 */
describe('operations: traces carry no secrets', () => {
  const bodies: string[] = [];
  let receiver: Server;
  let port: number;
  let sdk: NodeSDK;
  let t: TestApp;
  const saved: Record<string, string | undefined> = {};
  const env = (name: string, value: string) => {
    saved[name] = process.env[name];
    process.env[name] = value;
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    port = (receiver.address() as AddressInfo).port;
    // under /metrics/: the service does not trace requests there, so the receiver's own requests make no spans
    env('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `http://127.0.0.1:${port}/metrics/v1/traces`);
    env('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'http/json');
    env('OTEL_BSP_SCHEDULE_DELAY', '50');
    const tracing = startTracing();
    sdk = tracing.sdk;
    // as in tracing.ops.e2e-spec.ts: apply the HTTP instrumentation's patch to Node's http module (Jest's loader hides it)
    for (const instrumentation of tracing.instrumentations) {
      for (const def of instrumentation.getModuleDefinitions()) if (def.name === 'http') def.patch?.(process.getBuiltinModule('http'));
    }
    t = await createTestApp();
    await t.createShop();
  });
  afterAll(async () => {
    await t?.close();
    await sdk?.shutdown();
    await new Promise((done) => receiver?.close(done));
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('hash, token, page_info, code and secret-named parameters are redacted from server and client spans', async () => {
    await t.http().get(`${API}/orders/${randomUUID()}?hash=SECRET-HASH-1&locale=de`);
    await t.http().get(`${API}/products?limit=1&page_info=SECRET-CURSOR-2`);
    await t.http().get(`${API}/products?token=SECRET-TOKEN-3&code=SECRET-CODE-4&client_secret=SECRET-5&API_KEY=SECRET-6`);
    // an outgoing request (as a webhook delivery makes), through the patched module (an ESM named import is the original)
    await new Promise<void>((done, fail) =>
      process
        .getBuiltinModule('http')
        .get(`http://127.0.0.1:${port}/metrics/probe?token=SECRET-OUT-7&keep=yes`, (res) => res.resume().on('end', done))
        .on('error', fail),
    );

    const wanted = ['hash=REDACTED&locale=de', 'page_info=REDACTED', 'client_secret=REDACTED', 'API_KEY=REDACTED', 'token=REDACTED&keep=yes'];
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !wanted.every((w) => bodies.some((b) => b.includes(w)))) await new Promise((r) => setTimeout(r, 50));
    const all = bodies.join('\n');
    for (const w of wanted) expect(all).toContain(w);
    expect(all).toContain('"url.query"');
    expect(all).toContain('"url.full"');
    expect(all.match(/SECRET-[A-Z-]*\d/g) ?? []).toEqual([]);
  });
});
