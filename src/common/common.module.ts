import { Global, Module } from '@nestjs/common';
import { ContextHooks } from './context/context-hooks.js';
import { Pager } from './paging/pager.service.js';

/** The cross-cutting services every feature module uses: one pager, one set of context hooks. */
@Global()
@Module({ providers: [Pager, ContextHooks], exports: [Pager, ContextHooks] })
export class CommonModule {}
