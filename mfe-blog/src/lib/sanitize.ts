import DOMPurify from 'dompurify';

let hooked = false;

/**
 * The second layer: the API already sanitized the HTML on write; DOMPurify cleans it again in the browser
 * before it reaches the DOM, so a row written around the API still cannot run anything.
 */
export function sanitizeArticleHtml(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('rel', 'noopener noreferrer');
        if (node.getAttribute('target') !== '_blank') node.removeAttribute('target');
      }
    });
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'svg', 'math', 'iframe', 'form', 'input', 'button', 'textarea', 'select', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'action'],
    ADD_ATTR: ['target'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i,
  });
}
