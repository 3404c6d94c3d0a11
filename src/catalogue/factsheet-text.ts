/**
 * Text for the factsheet PDF, in linear time whatever the input: catalogue text is written by shop admins and may be
 * hostile (`<` without `>` by the thousand, one 100 KB word), and pdfkit's line wrapping is quadratic in a word's length.
 */

/** Characters of description passed to the PDF (a one-page factsheet holds about 4,000). */
export const FACTSHEET_TEXT_MAX = 4_000;
/** Characters of any other value (title, category path, a fact). */
export const FACTSHEET_VALUE_MAX = 300;
/** A longer run without a space is broken into pieces of this length. */
export const FACTSHEET_WORD_MAX = 40;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** Tags removed, a few common entities decoded, whitespace collapsed; one pass (a `<` never closed ends the tags). */
export function stripHtml(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open === -1) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, open) + ' ';
    const close = html.indexOf('>', open + 1);
    if (close === -1) {
      // no tag closes after here: the rest is text (searching again from every later `<` is what made it quadratic)
      out += html.slice(open + 1);
      break;
    }
    i = close + 1;
  }
  return out
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters (an ellipsis when cut), with every word longer than FACTSHEET_WORD_MAX broken by spaces. */
export function pdfText(text: string, max: number): string {
  const capped = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return capped.replace(new RegExp(`\\S{${FACTSHEET_WORD_MAX + 1},}`, 'g'), (word) => {
    const parts: string[] = [];
    for (let k = 0; k < word.length; k += FACTSHEET_WORD_MAX) parts.push(word.slice(k, k + FACTSHEET_WORD_MAX));
    return parts.join(' ');
  });
}
