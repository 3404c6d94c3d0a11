import { Module } from '@nestjs/common';
import { SearchSynonymsService } from './search-synonyms.service.js';

/** Per-shop search synonyms (issue 35). */
@Module({
  providers: [SearchSynonymsService],
  exports: [SearchSynonymsService],
})
export class SearchSynonymsModule {}
