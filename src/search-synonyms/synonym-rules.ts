/**
 * The rules of a synonym rule's text (issue 35), pure: how a phrase is normalised and what a valid rule is. The admin
 * API, the import and the shipped defaults all go through `checkedRule`, so every stored phrase is in this form and
 * the catalogue engine can compare it with a query normalised by `normalizeSearchPhrase`.
 *
 * Normal form of a phrase: Unicode NFKD with the combining marks removed (accent-folded: `spätburgunder` →
 * `spatburgunder`, `crémant` → `cremant`), `ß` → `ss`, `æ` → `ae`, `œ` → `oe`, lower case, hyphens, underscores and
 * slashes read as spaces (`müller-thurgau` → `muller thurgau`), runs of white space made one space, trimmed.
 *
 * A rule: `two_way` has at least 2 distinct phrases in `terms` and no `synonyms`; `one_way` has at least 1 phrase in
 * `terms` and at least 1 in `synonyms`. Phrases that are equal once normalised are merged (the first kept, in the
 * order given); a `synonyms` phrase that is also one of `terms` is refused (a rule cannot map a phrase to itself).
 */
export type SynonymKind = 'two_way' | 'one_way';
export const SYNONYM_KINDS: readonly SynonymKind[] = ['two_way', 'one_way'];

/** At most this many phrases in `terms` and in `synonyms`, each at most this many characters once normalised. */
export const MAX_PHRASES = 50;
export const MAX_PHRASE_LENGTH = 100;
/** At most this many rules per shop. */
export const MAX_RULES_PER_SHOP = 5_000;

/** A rule as written (the request body, an import item): members not checked yet. */
export interface SynonymRuleInput {
  kind?: unknown;
  terms?: unknown;
  synonyms?: unknown;
}

/** A checked rule in normal form. */
export interface CheckedSynonymRule {
  kind: SynonymKind;
  terms: string[];
  synonyms: string[];
}

/** A refused rule: `member` names the bad member (`terms[2]`), prefixed by the caller's path. */
export class SynonymRuleError extends Error {
  constructor(
    readonly member: string,
    readonly problem: string,
  ) {
    super(`${member} ${problem}`);
  }
}

const SEPARATORS = /[-_/\s]+/g;
const MARKS = /\p{M}+/gu;

/** The normal form of a phrase (a query word or a synonym phrase): see the header. */
export function normalizeSearchPhrase(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').replace(/ß/g, 'ss').replace(/æ/gi, 'ae').replace(/œ/gi, 'oe').toLowerCase().replace(SEPARATORS, ' ').trim();
}

/** Checks a whole rule (create, import) and gives it in normal form; throws `SynonymRuleError` naming the member. */
export function checkedRule(input: SynonymRuleInput, path = ''): CheckedSynonymRule {
  const kind = input.kind;
  if (kind === undefined || kind === null) throw new SynonymRuleError(`${path}kind`, 'is required (two_way or one_way)');
  if (typeof kind !== 'string' || !(SYNONYM_KINDS as readonly string[]).includes(kind)) throw new SynonymRuleError(`${path}kind`, 'must be two_way or one_way');
  const terms = phrases(input.terms, `${path}terms`);
  const synonyms = input.synonyms === undefined || input.synonyms === null ? [] : phrases(input.synonyms, `${path}synonyms`);
  if (kind === 'two_way') {
    if (synonyms.length > 0)
      throw new SynonymRuleError(`${path}synonyms`, 'must be empty for a two_way rule (every phrase of terms is a synonym of the others)');
    if (terms.length < 2) throw new SynonymRuleError(`${path}terms`, 'must hold at least 2 different phrases for a two_way rule');
  } else {
    if (terms.length < 1) throw new SynonymRuleError(`${path}terms`, 'must hold at least 1 phrase for a one_way rule');
    if (synonyms.length < 1) throw new SynonymRuleError(`${path}synonyms`, 'must hold at least 1 phrase for a one_way rule');
    const own = new Set(terms);
    const i = synonyms.findIndex((s) => own.has(s));
    if (i >= 0) throw new SynonymRuleError(`${path}synonyms[${rawIndex(input.synonyms, synonyms[i])}]`, `"${synonyms[i]}" is already one of terms`);
  }
  return { kind: kind as SynonymKind, terms, synonyms };
}

/** A partial update applied to the stored rule, then checked whole. */
export function updatedRule(current: CheckedSynonymRule, patch: SynonymRuleInput): CheckedSynonymRule {
  const kind = patch.kind === undefined ? current.kind : patch.kind;
  // switching to two_way without naming synonyms drops them (a two_way rule has none)
  const synonyms = patch.synonyms !== undefined ? patch.synonyms : kind === 'two_way' && patch.kind !== undefined ? [] : current.synonyms;
  return checkedRule({ kind, terms: patch.terms === undefined ? current.terms : patch.terms, synonyms });
}

/** Two checked rules say the same (an import that changes nothing). */
export function sameRule(a: CheckedSynonymRule, b: CheckedSynonymRule): boolean {
  return a.kind === b.kind && sameList(a.terms, b.terms) && sameList(a.synonyms, b.synonyms);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A list of phrases in normal form, duplicates merged (first kept); 422 naming the first bad item. */
function phrases(value: unknown, member: string): string[] {
  if (value === undefined || value === null) throw new SynonymRuleError(member, 'is required (a list of phrases)');
  if (!Array.isArray(value)) throw new SynonymRuleError(member, 'must be a list of phrases');
  if (value.length > MAX_PHRASES) throw new SynonymRuleError(member, `must hold at most ${MAX_PHRASES} phrases`);
  const out: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') throw new SynonymRuleError(`${member}[${i}]`, 'must be a string');
    const phrase = normalizeSearchPhrase(item);
    if (!phrase) throw new SynonymRuleError(`${member}[${i}]`, 'must not be blank');
    if (phrase.length > MAX_PHRASE_LENGTH) throw new SynonymRuleError(`${member}[${i}]`, `must be at most ${MAX_PHRASE_LENGTH} characters`);
    if (!out.includes(phrase)) out.push(phrase);
  }
  return out;
}

function rawIndex(raw: unknown, phrase: string): number {
  return Array.isArray(raw) ? raw.findIndex((x) => typeof x === 'string' && normalizeSearchPhrase(x) === phrase) : 0;
}
