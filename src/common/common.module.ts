import { Global, Module } from '@nestjs/common';
import { Pager } from './paging/pager.service.js';

/** The cross-cutting services every feature module uses: one pager. */
@Global()
@Module({ providers: [Pager], exports: [Pager] })
export class CommonModule {}
