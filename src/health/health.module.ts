import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { EventsModule } from '../events/index.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [TerminusModule, EventsModule, WebhooksModule], controllers: [HealthController] })
export class HealthModule {}
