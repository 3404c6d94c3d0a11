import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DomainEvents } from './domain-events.service.js';
import { EventHandlerWorker } from './event-handler.worker.js';
import { EventsRepository } from './events.repository.js';
import { queueBacklogOf } from '../extensions/index.js';

/** Domain events, their outbox and the in-process handler worker; global so any module can emit or subscribe. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [DomainEvents, EventHandlerWorker, EventsRepository, queueBacklogOf('handlers', 'event_handler_jobs')],
  exports: [DomainEvents, EventHandlerWorker],
})
export class EventsModule {}
