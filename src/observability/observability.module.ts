import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { Metrics } from './metrics.service.js';

/** Metrics (prom-client) for every module: `Metrics` is injectable everywhere; GET /metrics and the metrics port. */
@Global()
@Module({ controllers: [MetricsController], providers: [Metrics, MetricsServer], exports: [Metrics] })
export class ObservabilityModule {}
