import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SkipRateLimit } from '../common/auth/rate-limit.js';
import { AppError } from '../common/http/app-error.js';
import { AppConfig } from '../config/app-config.js';
import { bearerMatches } from './metrics-access.js';
import { Metrics } from './metrics.service.js';

/**
 * GET /metrics on the API port, only when METRICS_TOKEN is set and given as the bearer; without METRICS_TOKEN it
 * does not exist here (404) and metrics are served on METRICS_PORT alone (see MetricsServer).
 */
@ApiExcludeController()
@SkipRateLimit()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.config.METRICS_TOKEN) throw new AppError(404, 'not found');
    if (!bearerMatches(req.headers.authorization, this.config.METRICS_TOKEN)) {
      throw new AppError(401, 'the metrics token is required', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    const { contentType, body } = await this.metrics.render();
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).send(body);
  }
}
