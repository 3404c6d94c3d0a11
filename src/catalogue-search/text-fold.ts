/**
 * The one text normalization of search (issue 35), for the indexed text and the query alike: accents removed
 * (NFKD, then the letters NFKD keeps: ß, æ, œ, ø), lower case, split into words of letters and digits; a decimal
 * number stays one word with a dot ("1,5" and "1.50" are "1.5").
 */
export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o');
}

const WORD = /[a-z0-9]+(?:\.[0-9]+)?/g;
const NUMBER = /^[0-9]+(?:\.[0-9]+)?$/;

/** The words of a text (folded), numbers normalized. */
export function textTokens(s: string): string[] {
  const folded = foldText(s).replace(/([0-9]),([0-9])/g, '$1.$2');
  const out = folded.match(WORD) ?? [];
  for (let i = 0; i < out.length; i++) if (out[i].includes('.')) out[i] = normalNumber(out[i]);
  return out;
}

/** A decimal without trailing zeros ("1.50" → "1.5", "2.0" → "2"). */
function normalNumber(w: string): string {
  return w.replace(/(\.[0-9]*?)0+$/, '$1').replace(/\.$/, '');
}

/** Whether a word is a number (matched exactly: no prefix, no typo). */
export function isNumber(w: string): boolean {
  return NUMBER.test(w);
}

/** Edits a word may have and still match (typo tolerance): none under 5 letters, one from 5, two from 9. */
export function typoBudget(w: string): number {
  if (isNumber(w)) return 0;
  return w.length >= 9 ? 2 : w.length >= 5 ? 1 : 0;
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * Levenshtein distance of `a` and `b` if at most `max`, else `max + 1` (a band of the table: rows stop as soon as
 * every cell is over the bound).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  // two rows of scratch reused across calls (the typo scan calls this for every term of a length bucket)
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb + 32);
    rowB = new Int32Array(lb + 32);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let low = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      cur[j] = v;
      if (v < low) low = v;
    }
    if (low > max) return max + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[lb], max + 1);
}
