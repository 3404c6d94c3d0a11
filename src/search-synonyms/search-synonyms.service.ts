import { Injectable } from '@nestjs/common';
import type { SearchSynonymsReader, SynonymRule } from './synonyms.contract.js';

/** Skeleton (issue 35): no rules yet; the storage, admin CRUD and shipped default set come next. */
@Injectable()
export class SearchSynonymsService implements SearchSynonymsReader {
  rulesFor(_tenantId: string): Promise<readonly SynonymRule[]> {
    return Promise.resolve([]);
  }

  version(_tenantId: string): number {
    return 0;
  }
}
