import DOMPurify from 'dompurify';

/**
 * Catalogue HTML made safe to render: the API already sanitises HTML members on write, and this client does not rely
 * on it (rows stored before that, another back end): no script, event handler, `javascript:` URL, form or frame.
 */
export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}
