import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A search synonym rule of a shop (issue 35; README "Search synonyms"); phrases in normal form (src/search-synonyms/synonym-rules.ts). */
@Entity('search_synonyms')
export class SearchSynonym extends TenantEntity {
  /** Import key, unique per shop; null for a rule made through the admin API without one (the export then uses its id). */
  @Column({ type: 'text', nullable: true })
  key: string | null;

  /** `two_way` or `one_way`. */
  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'text', array: true })
  terms: string[];

  /** Empty for a `two_way` rule. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  synonyms: string[];
}
