import type { SynonymRule } from '../search-synonyms/index.js';
import { textTokens } from './text-fold.js';

/** Phrase (words joined by one space) → its alternatives, and the longest phrase's word count. */
interface PhraseTable {
  table: Map<string, Map<string, string[]>>;
  longest: number;
}

/** Each rules list's phrase table (a list no longer used is collected with its table). */
const tables = new WeakMap<readonly SynonymRule[], PhraseTable>();

/**
 * A search as the engine matches it: groups ANDed; a group's alternatives ORed; an alternative's words ANDed (one
 * word, or a phrase from a synonym rule).
 */
export type ExpandedQuery = string[][][];

/**
 * Applies a shop's synonym rules to the query words (issue 35), at query time: from the left, the longest run of
 * words equal to a rule's phrase becomes one group whose alternatives are that phrase and its synonyms (a two-way
 * rule: every other phrase of the set; a one-way rule: its `synonyms`, only when the run is one of its `terms`).
 * Every other word is a group of its own. Several rules reaching the same phrase add up. Pure (the rules' phrase
 * table is made once per rules list: the synonyms service hands out the same frozen list until the rules change).
 */
export function expandQuery(words: readonly string[], rules: readonly SynonymRule[]): ExpandedQuery {
  let kept = tables.get(rules);
  if (!kept) tables.set(rules, (kept = phraseTable(rules)));
  const { table, longest } = kept;
  const out: ExpandedQuery = [];
  let i = 0;
  while (i < words.length) {
    let taken = 0;
    for (let n = Math.min(longest, words.length - i); n >= 1 && taken === 0; n--) {
      const phrase = words.slice(i, i + n);
      const alts = table.get(phrase.join(' '));
      if (!alts) continue;
      const group: string[][] = [phrase];
      for (const [key, alt] of alts) if (key !== phrase.join(' ')) group.push(alt);
      out.push(group);
      taken = n;
    }
    if (taken === 0) {
      out.push([[words[i]]]);
      taken = 1;
    }
    i += taken;
  }
  return out;
}

function phraseTable(rules: readonly SynonymRule[]): PhraseTable {
  const table = new Map<string, Map<string, string[]>>();
  let longest = 1;
  const add = (from: string[], to: string[]) => {
    if (from.length === 0 || to.length === 0) return;
    const key = from.join(' ');
    let alts = table.get(key);
    if (!alts) table.set(key, (alts = new Map<string, string[]>()));
    alts.set(to.join(' '), to);
    longest = Math.max(longest, from.length);
  };
  for (const r of rules) {
    const terms = r.terms.map((t) => textTokens(t)).filter((t) => t.length > 0);
    const targets = r.kind === 'two_way' ? terms : r.synonyms.map((t) => textTokens(t)).filter((t) => t.length > 0);
    for (const from of terms) for (const to of targets) add(from, to);
  }
  return { table, longest };
}
