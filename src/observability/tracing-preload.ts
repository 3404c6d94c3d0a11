/**
 * `node --import ./dist/src/observability/tracing-preload.js dist/src/main.js` (what `npm start` and the Docker
 * image run): when OTEL_EXPORTER_OTLP_ENDPOINT is set, registers OpenTelemetry's ESM loader hook (so the HTTP,
 * Express and pg instrumentations can patch modules loaded after it) and starts the SDK, as the OpenTelemetry docs
 * describe for ES modules. Unset, it does nothing else and loads nothing: the app runs as without it.
 */
import { register } from 'node:module';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTracing } = await import('./tracing-sdk.js');
  startTracing();
}
