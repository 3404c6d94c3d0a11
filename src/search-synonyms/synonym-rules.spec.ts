import { describe, expect, it } from '@jest/globals';
import { WINE_SYNONYMS } from './data/wine-synonyms.js';
import { checkedRule, normalizeSearchPhrase, sameRule, SynonymRuleError, updatedRule } from './synonym-rules.js';

const refusal = (work: () => unknown): string => {
  try {
    work();
  } catch (err) {
    if (err instanceof SynonymRuleError) return err.message;
    throw err;
  }
  throw new Error('accepted');
};

describe('search synonym rules (issue 35)', () => {
  it('normalises phrases: lower case, accents folded, ß/æ/œ spelled out, separators as one space, trimmed', () => {
    expect(normalizeSearchPhrase('  Spätburgunder ')).toBe('spatburgunder');
    expect(normalizeSearchPhrase('Crémant  de\tLoire')).toBe('cremant de loire');
    expect(normalizeSearchPhrase('Müller-Thurgau')).toBe('muller thurgau');
    expect(normalizeSearchPhrase('Süß / Œil-de-Perdrix')).toBe('suss oeil de perdrix');
    expect(normalizeSearchPhrase('CÔTES_DU_RHÔNE')).toBe('cotes du rhone');
    expect(normalizeSearchPhrase('1.5 l')).toBe('1.5 l');
    expect(normalizeSearchPhrase(' \t ')).toBe('');
  });

  it('two_way: at least 2 distinct phrases, no synonyms; duplicates merged, the first kept', () => {
    expect(checkedRule({ kind: 'two_way', terms: ['Syrah', 'Shiraz', 'SYRAH'] })).toEqual({ kind: 'two_way', terms: ['syrah', 'shiraz'], synonyms: [] });
    expect(checkedRule({ kind: 'two_way', terms: ['a', 'b'], synonyms: null })).toEqual({ kind: 'two_way', terms: ['a', 'b'], synonyms: [] });
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: ['Syrah', 'syrah '] }))).toBe('terms must hold at least 2 different phrases for a two_way rule');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: ['a', 'b'], synonyms: ['c'] }))).toMatch(/^synonyms must be empty for a two_way rule/);
  });

  it('one_way: at least 1 term and 1 synonym; a synonym that is also a term is refused, naming its index as sent', () => {
    expect(checkedRule({ kind: 'one_way', terms: ['Bubbly'], synonyms: ['Crémant', 'cremant', 'Sekt'] })).toEqual({
      kind: 'one_way',
      terms: ['bubbly'],
      synonyms: ['cremant', 'sekt'],
    });
    expect(refusal(() => checkedRule({ kind: 'one_way', terms: ['bubbly'] }))).toBe('synonyms must hold at least 1 phrase for a one_way rule');
    expect(refusal(() => checkedRule({ kind: 'one_way', terms: [], synonyms: ['x'] }))).toBe('terms must hold at least 1 phrase for a one_way rule');
    expect(refusal(() => checkedRule({ kind: 'one_way', terms: ['bubbly'], synonyms: ['sekt', 'sekt', 'BUBBLY'] }))).toBe(
      'synonyms[2] "bubbly" is already one of terms',
    );
  });

  it('names the bad member, under the caller path', () => {
    expect(refusal(() => checkedRule({ terms: ['a', 'b'] }))).toBe('kind is required (two_way or one_way)');
    expect(refusal(() => checkedRule({ kind: 'both', terms: ['a', 'b'] }, 'search_synonyms[3].'))).toBe('search_synonyms[3].kind must be two_way or one_way');
    expect(refusal(() => checkedRule({ kind: 'two_way' }))).toBe('terms is required (a list of phrases)');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: 'a, b' }))).toBe('terms must be a list of phrases');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: ['a', 3] }))).toBe('terms[1] must be a string');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: ['a', '--'] }))).toBe('terms[1] must not be blank');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: ['a', 'é'.repeat(101)] }))).toBe('terms[1] must be at most 100 characters');
    expect(refusal(() => checkedRule({ kind: 'two_way', terms: Array.from({ length: 51 }, (_, i) => `t${i}`) }))).toBe('terms must hold at most 50 phrases');
  });

  it('an update replaces the members sent and checks the whole rule; switching to two_way drops the synonyms', () => {
    const current = checkedRule({ kind: 'one_way', terms: ['bubbly'], synonyms: ['sekt'] });
    expect(updatedRule(current, { terms: ['Fizz'] })).toEqual({ kind: 'one_way', terms: ['fizz'], synonyms: ['sekt'] });
    expect(updatedRule(current, { kind: 'two_way', terms: ['bubbly', 'fizz'] })).toEqual({ kind: 'two_way', terms: ['bubbly', 'fizz'], synonyms: [] });
    expect(refusal(() => updatedRule(current, { kind: 'two_way' }))).toMatch(/terms must hold at least 2/);
    expect(refusal(() => updatedRule(current, { synonyms: [] }))).toMatch(/synonyms must hold at least 1/);
    expect(sameRule(current, checkedRule({ kind: 'one_way', terms: ['BUBBLY'], synonyms: ['Sekt'] }))).toBe(true);
    expect(sameRule(current, checkedRule({ kind: 'one_way', terms: ['bubbly'], synonyms: ['sekt', 'cava'] }))).toBe(false);
  });

  it('the shipped defaults are valid rules with unique keys, and no phrase belongs to two grape rules', () => {
    const keys = new Set<string>();
    const owner = new Map<string, string>();
    for (const r of WINE_SYNONYMS) {
      expect(keys.has(r.key)).toBe(false);
      keys.add(r.key);
      const rule = checkedRule(r);
      expect(rule.terms.length + rule.synonyms.length).toBe(r.terms.length + r.synonyms.length); // nothing merged away
      if (rule.kind !== 'two_way') continue;
      for (const term of rule.terms) {
        expect([term, owner.get(term)]).toEqual([term, undefined]);
        owner.set(term, r.key);
      }
    }
  });
});
