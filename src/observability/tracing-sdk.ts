import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Span } from '@opentelemetry/api';
import { redactUrlAttribute, URL_ATTRIBUTES } from './redact-url.js';

/** Rewrites the URL attributes the HTTP instrumentation put on a span with their secret-like parameters redacted. */
function redactSpanUrls(span: Span): void {
  const attributes = (span as Span & { attributes?: Record<string, unknown> }).attributes;
  if (!attributes) return;
  for (const key of URL_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value === 'string') span.setAttribute(key, redactUrlAttribute(key, value));
  }
}

/**
 * The OpenTelemetry SDK with the HTTP, Express and pg instrumentations. The exporter follows the standard
 * environment (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS,
 * OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, …); tests pass their own span processor (an in-memory exporter).
 */
export function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}): { sdk: NodeSDK; instrumentations: InstrumentationBase[] } {
  const instrumentations: InstrumentationBase[] = [
    // probes are not worth a trace each
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => /^\/(health|metrics)(\/|$|\?)/.test(req.url ?? ''),
      // no secret of a query string (a receipt's hash, a token, a cursor, a code) reaches the collector, in or out
      requestHook: redactSpanUrls,
    }),
    new ExpressInstrumentation(),
    // statement text only, never the bound values; only inside a traced operation (not the workers' polling)
    new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
  ];
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'vinoshop-commerce',
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    instrumentations,
  });
  sdk.start();
  return { sdk, instrumentations };
}
