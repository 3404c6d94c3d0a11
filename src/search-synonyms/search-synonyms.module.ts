import { Injectable, Module } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context.js';
import { adminResource, TenantCreatedHook } from '../extensions/index.js';
import { AdminSearchSynonymsController } from './admin-search-synonyms.controller.js';
import { SearchSynonymsAdmin } from './search-synonyms-admin.service.js';
import { SearchSynonymsRepository } from './search-synonyms.repository.js';
import { SearchSynonymsService } from './search-synonyms.service.js';

/** Every new shop gets the shipped wine synonyms (src/search-synonyms/data/wine-synonyms.ts) inside its creating transaction. */
@Injectable()
export class DefaultSynonymsOnTenantCreated extends TenantCreatedHook {
  constructor(private readonly admin: SearchSynonymsAdmin) {
    super();
  }

  async onTenantCreated(ctx: RequestContext): Promise<void> {
    await this.admin.addDefaults(ctx);
  }
}

/** Per-shop search synonyms (issue 35): admin CRUD, import/export, shipped defaults, the engine's cached reader. */
@Module({
  controllers: [AdminSearchSynonymsController],
  providers: [SearchSynonymsRepository, SearchSynonymsService, SearchSynonymsAdmin, DefaultSynonymsOnTenantCreated, adminResource('search')],
  exports: [SearchSynonymsService, SearchSynonymsAdmin],
})
export class SearchSynonymsModule {}
