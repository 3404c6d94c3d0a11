import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { DomainEvents } from '../../src/events/domain-events.service.js';
import { startTracing } from '../../src/observability/tracing-sdk.js';
import { createTestApp, TestApp, TestShop } from '../helpers/test-app.js';
import { CH_ADDRESS, checkoutWith, Ids, importShop } from './checkout.fixture.js';

/**
 * Issue 19, tracing: the SDK the preload starts (src/observability/tracing-sdk.ts), with an in-memory exporter. One
 * checkout completion yields one connected trace: the HTTP request's server span → the placement transaction →
 * the outbox event → the in-process handler (run later by the worker, continuing the stored trace context).
 */
describe('operations: tracing', () => {
  const exporter = new InMemorySpanExporter();
  let sdk: NodeSDK;
  let t: TestApp;
  let shop: TestShop;
  let ids: Ids;
  const handled: string[] = [];

  beforeAll(async () => {
    const tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    sdk = tracing.sdk;
    // A normal start loads `http` through Node's loader after the SDK, which is when the HTTP instrumentation patches
    // it. Jest loads modules through a loader of its own that the instrumentation's hook does not see, so apply the
    // instrumentation's own patch to Node's http module here, as its hook would.
    for (const instrumentation of tracing.instrumentations) {
      for (const def of instrumentation.getModuleDefinitions()) if (def.name === 'http') def.patch?.(process.getBuiltinModule('http'));
    }
    t = await createTestApp();
    t.get(DomainEvents).subscribe('order.placed', async () => void handled.push('placed'), { name: 'tracing-test.order-placed' });
    shop = await t.createShop();
    ids = await importShop(shop.admin);
  });
  afterAll(async () => {
    await t?.close();
    await sdk?.shutdown();
  });

  const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
  const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

  it('one checkout completion is one trace: request → placement transaction → outbox → handler', async () => {
    const visitor = t.client(shop.storefront_token);
    const c = await checkoutWith(visitor, [[ids.variants['v-wine'], 1]]);
    await visitor.put(`/checkouts/${c.id}`, { shipping_address: CH_ADDRESS, shipping_method_id: ids.shipping_methods.post }).expect(200);
    exporter.reset();
    handled.length = 0;
    await visitor
      .post(`/checkouts/${c.id}/complete`)
      .set('X-Request-Id', 'trace-req-1')
      .send({ payment_type_id: ids.payment_types.invoice, accepted_terms: true, age_confirmed: true })
      .expect(200);

    const deadline = Date.now() + 15_000;
    while (byName(exporter.getFinishedSpans(), 'event.handle tracing-test.order-placed').length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(handled).toEqual(['placed']);
    const spans = exporter.getFinishedSpans();

    const [server] = spans.filter((s) => s.kind === SpanKind.SERVER && s.attributes['request.id'] === 'trace-req-1');
    expect(server).toBeDefined();
    expect(server.attributes['tenant.id']).toBe(shop.tenant.id);
    const traceId = server.spanContext().traceId;

    const [placement] = byName(spans, 'checkout.place_order');
    expect(placement.spanContext().traceId).toBe(traceId);
    expect(parentOf(placement)).toBe(server.spanContext().spanId);
    expect(placement.attributes).toMatchObject({ 'tenant.id': shop.tenant.id, 'request.id': 'trace-req-1' });

    const [emit] = byName(spans, 'outbox.emit order.placed');
    expect(emit.spanContext().traceId).toBe(traceId);
    expect(parentOf(emit)).toBe(placement.spanContext().spanId);
    expect(emit.kind).toBe(SpanKind.PRODUCER);

    const [handler] = byName(spans, 'event.handle tracing-test.order-placed');
    expect(handler.spanContext().traceId).toBe(traceId);
    expect(parentOf(handler)).toBe(emit.spanContext().spanId);
    expect(handler.kind).toBe(SpanKind.CONSUMER);
    expect(handler.attributes).toMatchObject({
      'tenant.id': shop.tenant.id,
      'request.id': 'trace-req-1',
      'event.topic': 'order.placed',
      'event.id': emit.attributes['event.id'],
    });
    // the handler ran after the request had been answered
    expect(handler.startTime[0] * 1e9 + handler.startTime[1]).toBeGreaterThanOrEqual(placement.endTime[0] * 1e9 + placement.endTime[1]);
  });

  it('stores the trace context (traceparent and the request id) with the event', async () => {
    const rows = (await t.db.query(`SELECT trace_context FROM outbox_events WHERE topic = 'order.placed' AND tenant_id = $1`, [shop.tenant.id])) as Array<{
      trace_context: Record<string, string> | null;
    }>;
    expect(rows).toHaveLength(1);
    expect(rows[0].trace_context).toEqual({ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/), request_id: 'trace-req-1' });
  });
});
