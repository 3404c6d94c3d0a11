import sanitizeHtml from 'sanitize-html';

/**
 * The allow-list of stored HTML members (a product's `body_html` and `summary_html`, a collection's or a content page's
 * `body_html`), applied on every write so that every client may render them as HTML (README, Security). Anything
 * else is removed: scripts, styles, event handler attributes, `javascript:` and `data:` URLs, iframes, forms.
 */
export const SAFE_HTML_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code',
  'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'span', 'div',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  'a', 'img', 'figure', 'figcaption',
] as const; // prettier-ignore

export const SAFE_HTML_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start'],
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...SAFE_HTML_TAGS],
  allowedAttributes: SAFE_HTML_ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // a link that opens elsewhere cannot reach back into the shop's window
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** `html` with only the allowed tags, attributes and URL schemes left. */
export function safeHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** `safeHtml` of a member that may be absent or null (left as it is). */
export function safeHtmlMember<T extends string | null | undefined>(html: T): T {
  return (typeof html === 'string' ? safeHtml(html) : html) as T;
}

/** Every language's text of a translated HTML member made safe. */
export function safeHtmlTranslations<T extends Record<string, string | null>>(texts: T): T {
  const out: Record<string, string | null> = {};
  for (const [lang, text] of Object.entries(texts)) out[lang] = text === null ? null : safeHtml(text);
  return out as T;
}
