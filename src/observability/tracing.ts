import { Attributes, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The service's own spans through the OpenTelemetry API. Without an SDK (OTEL_EXPORTER_OTLP_ENDPOINT unset, see
 * src/observability/tracing-preload.ts) every call here is the API's no-op: no span, no allocation worth counting.
 */
const tracer = () => trace.getTracer('vinoshop-commerce');

/** Marks `span` as failed by `err` and gives `err` back to be rethrown. */
function failed(span: Span, err: unknown): unknown {
  span.recordException(err as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
  return err;
}

/** Runs `fn` in a child span of the active one; an exception marks the span as failed and is rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      throw failed(span, err);
    } finally {
      span.end();
    }
  });
}

/** `inSpan` for synchronous work (recording an outbox event): the span is active while `fn` runs. */
export function inSpanSync<T>(name: string, attributes: Attributes, fn: (span: Span) => T, kind: SpanKind = SpanKind.INTERNAL): T {
  return tracer().startActiveSpan(name, { attributes, kind }, (span) => {
    try {
      return fn(span);
    } catch (err) {
      throw failed(span, err);
    } finally {
      span.end();
    }
  });
}

/** The trace context to store beside work done later (an outbox event): W3C `traceparent`/`tracestate` and the request id; null when not tracing. */
export function traceCarrier(requestId?: string): Record<string, string> | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent) return null;
  if (requestId) carrier.request_id = requestId;
  return carrier;
}

/** Runs `fn` in a span continuing the trace stored in `carrier` (a root span when there is none). */
export function continueTrace<T>(
  carrier: Record<string, string> | null | undefined,
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.CONSUMER,
): Promise<T> {
  const parent = carrier?.traceparent ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const attrs = carrier?.request_id ? { ...attributes, 'request.id': carrier.request_id } : attributes;
  return context.with(parent, () => inSpan(name, attrs, fn, kind));
}

/** The active span (the HTTP server span while a request is handled), or null. */
export function activeSpan(): Span | null {
  const span = trace.getActiveSpan();
  return span && span.isRecording() ? span : null;
}

/** Flushes the spans not yet exported (before the process exits). */
export async function flushTraces(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const target = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
  await target.forceFlush?.().catch(() => undefined);
}
