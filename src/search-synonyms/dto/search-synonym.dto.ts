import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsIn, IsOptional } from 'class-validator';
import { OptionalText } from '../../common/http/dto-fields.js';
import type { SearchSynonymRow } from '../search-synonyms.repository.js';
import { SYNONYM_KINDS, type SynonymKind } from '../synonym-rules.js';

const PHRASES = 'Phrases of one or more words (at most 50, each at most 100 characters); stored lower-cased, accent-folded and trimmed, duplicates merged.';

/** A rule to create: `two_way` needs at least 2 terms and no synonyms; `one_way` at least 1 term and 1 synonym. */
export class CreateSearchSynonymDto {
  @ApiProperty({ enum: SYNONYM_KINDS })
  @IsIn(SYNONYM_KINDS as SynonymKind[], { message: 'kind must be two_way or one_way' })
  kind: SynonymKind;

  @ApiProperty({ type: [String], description: PHRASES })
  @IsArray({ message: 'terms must be a list of phrases' })
  terms: string[];

  @ApiProperty({ type: [String], required: false, nullable: true, description: `${PHRASES} Empty or absent for two_way.` })
  @IsOptional()
  @IsArray({ message: 'synonyms must be a list of phrases' })
  synonyms?: string[] | null;

  /** Import key, unique per shop (optional; the shipped defaults have `default-…`). */
  @OptionalText(100)
  key?: string | null;
}

/** Every member optional: the members sent replace the stored ones, and the whole rule is checked again. */
export class UpdateSearchSynonymDto {
  @ApiProperty({ enum: SYNONYM_KINDS, required: false })
  @IsOptional()
  @IsIn(SYNONYM_KINDS as SynonymKind[], { message: 'kind must be two_way or one_way' })
  kind?: SynonymKind;

  @ApiProperty({ type: [String], required: false, description: PHRASES })
  @IsOptional()
  @IsArray({ message: 'terms must be a list of phrases' })
  terms?: string[];

  @ApiProperty({ type: [String], required: false, nullable: true, description: PHRASES })
  @IsOptional()
  @IsArray({ message: 'synonyms must be a list of phrases' })
  synonyms?: string[] | null;

  /** Null clears the key. */
  @OptionalText(100)
  key?: string | null;
}

export class SearchSynonymDto {
  id: string;
  /** Import key; null for a rule made without one. */
  key: string | null;
  @ApiProperty({ enum: SYNONYM_KINDS })
  kind: SynonymKind;
  @ApiProperty({ type: [String] })
  terms: string[];
  /** Empty for two_way. */
  @ApiProperty({ type: [String] })
  synonyms: string[];
  created_at: string;
  /** Null until the first update. */
  updated_at: string | null;
}

export function mapSearchSynonym(r: SearchSynonymRow): SearchSynonymDto {
  return {
    id: r.id,
    key: r.key,
    kind: r.kind,
    terms: r.terms,
    synonyms: r.synonyms,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at ? r.updated_at.toISOString() : null,
  };
}

/** A rule in the export document (and the import body): the admin members without id and dates. */
export class SearchSynonymDocumentItemDto {
  /** Unique per shop; the import upserts by it (a rule made without a key is exported under its id). */
  key: string;
  @ApiProperty({ enum: SYNONYM_KINDS })
  kind: SynonymKind;
  @ApiProperty({ type: [String] })
  terms: string[];
  @ApiProperty({ type: [String] })
  synonyms: string[];
}

/** The export (and the import body): every rule of the shop, by key. */
export class SearchSynonymsDocumentDto {
  @ApiProperty({ type: () => [SearchSynonymDocumentItemDto], required: false })
  @IsOptional()
  @IsArray({ message: 'search_synonyms must be a list' })
  search_synonyms?: unknown[];
}

export class SearchSynonymsImportCountsDto {
  search_synonyms: number;
}

export class SearchSynonymsImportIdsDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  search_synonyms: Record<string, string>;
}

/** What an import did: rules created and updated (an unchanged one counts in neither), ids by key. */
export class SearchSynonymsImportResultDto {
  created: SearchSynonymsImportCountsDto;
  updated: SearchSynonymsImportCountsDto;
  ids: SearchSynonymsImportIdsDto;
}
