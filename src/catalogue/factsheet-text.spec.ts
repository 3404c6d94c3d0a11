import { describe, expect, it } from '@jest/globals';
import { FACTSHEET_WORD_MAX, pdfText, stripHtml } from './factsheet-text.js';

describe('factsheet text', () => {
  it('strips tags, decodes common entities and collapses whitespace', () => {
    expect(stripHtml('<p>Deep <b>red</b>,\n  ripe &amp; round.</p><img src=x onerror=alert(1)>')).toBe('Deep red , ripe & round.');
    expect(stripHtml('a < b and c')).toBe('a b and c');
    expect(stripHtml('<p>open <br')).toBe('open br');
    expect(stripHtml('')).toBe('');
  });

  it('is linear on adversarial input (200,000 `<` and no `>`; many tags; one huge word)', () => {
    const inputs = ['<'.repeat(200_000), '<a'.repeat(100_000), '<>'.repeat(100_000), `${'<p>'.repeat(50_000)}x`, 'x'.repeat(200_000)];
    // linear: a few ms each; the quadratic regex this replaced takes minutes on the first of these, past the test's
    // timeout (no clock is read here: the outputs are checked, and a quadratic scan never reaches them)
    const outputs = inputs.map((input) => stripHtml(input));
    expect(outputs.map((o) => o.length)).toEqual([199_999, 199_999, 0, 1, 200_000]);
    for (const o of outputs) expect(pdfText(o, 4_000).length).toBeLessThanOrEqual(4_000 + 4_000 / FACTSHEET_WORD_MAX);
    expect(stripHtml('<'.repeat(10))).toBe('<'.repeat(9));
  });

  it('caps the text and breaks long words', () => {
    const text = pdfText('y'.repeat(1_000), 100);
    expect(text.length).toBeLessThanOrEqual(100 + 100 / FACTSHEET_WORD_MAX);
    expect(text.endsWith('…')).toBe(true);
    expect(Math.max(...text.split(' ').map((w) => w.length))).toBeLessThanOrEqual(FACTSHEET_WORD_MAX);
    expect(pdfText('short words stay', 100)).toBe('short words stay');
  });
});
