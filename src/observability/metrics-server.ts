import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createServer, Server } from 'node:http';
import { AppConfig } from '../config/app-config.js';
import { bearerMatches } from './metrics-access.js';
import { Metrics } from './metrics.service.js';

/**
 * METRICS_PORT > 0: GET /metrics on a port of its own, bound to METRICS_HOST (127.0.0.1 by default), apart from the
 * public API; METRICS_TOKEN, when also set, is required there too. Only the HTTP service opens it (not the CLI).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  get address(): { host: string; port: number } | null {
    const a = this.server?.address();
    return a && typeof a === 'object' ? { host: a.address, port: a.port } : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.METRICS_PORT || !this.adapterHost.httpAdapter) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const reply = (status: number, body: string, type = 'application/json') => {
        res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
        res.end(body);
      };
      if (path !== '/metrics') return reply(404, JSON.stringify({ errors: 'not found' }));
      if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, JSON.stringify({ errors: `method ${req.method} not allowed on this path` }));
      if (this.config.METRICS_TOKEN && !bearerMatches(req.headers.authorization, this.config.METRICS_TOKEN)) {
        return reply(401, JSON.stringify({ errors: 'the metrics token is required' }));
      }
      this.metrics.render().then(
        ({ contentType, body }) => reply(200, body, contentType),
        (err: Error) => {
          this.logger.error(`metrics rendering failed: ${err.message}`, err.stack);
          reply(500, JSON.stringify({ errors: 'internal error' }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on http://${this.config.METRICS_HOST}:${this.config.METRICS_PORT}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
