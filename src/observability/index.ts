/** The public surface of `observability` for other modules (feature -> feature imports go through this file only). */
export { SlowQueryLogger, type SlowQuery } from './slow-query-logger.js';
export { continueTrace, inSpan, inSpanSync, traceCarrier } from './tracing.js';
export { Metrics } from './metrics.service.js';
export { CatalogueIndexStats, type CatalogueIndexSnapshot } from './catalogue-index-stats.js';
