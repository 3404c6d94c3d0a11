import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from '../common/cluster/cache-bus.js';
import { RequestContext } from '../common/context/request-context.js';
import { SearchSynonymsRepository, type SearchSynonymRow } from './search-synonyms.repository.js';
import type { SearchSynonymsReader, SynonymRule } from './synonyms.contract.js';

/** Cache-bus topic of the `search_synonyms` trigger (migration SearchSynonyms1795709000000) and of the admin writes. */
export const SEARCH_SYNONYMS_CACHE_TOPIC = 'search_synonyms';

/**
 * The shop's rules for the catalogue engine (issue 35), from memory: kept per tenant until a `search_synonyms`
 * message drops them. Every write to the table, by any path, sends one at commit from its trigger (to every
 * instance, WORKERS=2 included); the writing instance also drops at once after its commit, so its next read sees
 * the change. `version(tenant)` grows with every drop of that tenant (or of every tenant, after the bus reconnects),
 * so a memo keyed by it never serves an answer computed with older rules. While the bus is not listening, nothing is
 * kept: each `rulesFor` reads the table.
 */
@Injectable()
export class SearchSynonymsService implements SearchSynonymsReader {
  private readonly cache = new Map<string, readonly SynonymRule[]>();
  private readonly versions = new Map<string, number>();
  private everyTenant = 0;
  private epoch = 0;

  constructor(
    private readonly repo: SearchSynonymsRepository,
    @Optional() private readonly bus?: CacheBus,
  ) {
    bus?.subscribe(SEARCH_SYNONYMS_CACHE_TOPIC, (tenantId) => this.drop(tenantId));
  }

  async rulesFor(tenantId: string): Promise<readonly SynonymRule[]> {
    const listening = this.bus?.listening === true;
    const hit = listening ? this.cache.get(tenantId) : undefined;
    if (hit) return hit;
    const epoch = this.epoch;
    const rules = Object.freeze((await this.repo.allOf(tenantId)).map(ruleOf));
    // a drop while we read means what we read may be older than the change: serve it, keep nothing
    if (listening && epoch === this.epoch && this.bus?.listening) this.cache.set(tenantId, rules);
    return rules;
  }

  version(tenantId: string): number {
    return this.everyTenant + (this.versions.get(tenantId) ?? 0);
  }

  /** After a committed write of this instance: drops here at once (and tells the others, as the trigger does). */
  async changed(ctx: RequestContext): Promise<void> {
    if (ctx.manager?.queryRunner?.isTransactionActive) return;
    if (this.bus) await this.bus.publish(SEARCH_SYNONYMS_CACHE_TOPIC, ctx.tenantId);
    else this.drop(ctx.tenantId);
  }

  private drop(tenantId: string | null): void {
    this.epoch += 1;
    if (tenantId === null) {
      this.cache.clear();
      this.everyTenant += 1;
      return;
    }
    this.cache.delete(tenantId);
    this.versions.set(tenantId, (this.versions.get(tenantId) ?? 0) + 1);
  }
}

function ruleOf(r: SearchSynonymRow): SynonymRule {
  return Object.freeze({ id: r.id, kind: r.kind, terms: Object.freeze([...r.terms]), synonyms: Object.freeze([...r.synonyms]) });
}
