import sanitizeHtml from 'sanitize-html';

/**
 * The one allowlist for article HTML, applied on every write (admin form and webhook). Anything not listed is
 * dropped: no script, style, iframe, SVG/MathML, event handler, or javascript:/data: URL can survive.
 */
const ALLOWED_TAGS = [
  'h2', 'h3', 'h4', 'h5', 'h6',
  'p', 'br', 'hr',
  'ul', 'ol', 'li',
  'a', 'img', 'figure', 'figcaption',
  'blockquote', 'code', 'pre',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  'em', 'strong', 'b', 'i', 's', 'del', 'sub', 'sup', 'mark', 'small',
];

/** Elements removed together with everything inside them. */
const DROP_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'svg', 'math', 'template', 'title', 'xmp', 'noembed', 'noframes', 'plaintext', 'select', 'button', 'head',
];

/** Only absolute http(s) URLs or site paths; anything else (odd schemes, backticks, entities) is dropped. */
const SAFE_SRC = /^(?:https?:\/\/[^\s`"'<>]+|\/(?!\/)[^\s`"'<>]*)$/i;
const SAFE_HREF = /^(?:https?:\/\/[^\s`"'<>]+|mailto:[^\s`"'<>]+|tel:[0-9+\-() ]+|\/(?!\/)[^\s`"'<>]*|#[\w-]*)$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedClasses: { code: [/^language-[a-z0-9+-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROP_WITH_CONTENT,
  // A top-level h1 would compete with the page's own title: demote it.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = {};
      if (attribs.href !== undefined && SAFE_HREF.test(attribs.href.trim())) out.href = attribs.href.trim();
      if (attribs.title !== undefined) out.title = attribs.title;
      out.rel = 'noopener noreferrer';
      if (attribs.target === '_blank') out.target = '_blank';
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      const out: sanitizeHtml.Attributes = { ...rest, loading: 'lazy' };
      if (src !== undefined && SAFE_SRC.test(src.trim())) out.src = src.trim();
      return { tagName, attribs: out };
    },
  },
  // An image without a safe source goes with its tag. A link whose address was unsafe (javascript:, data:, …)
  // or missing keeps only its text: an underlined anchor that leads nowhere would only puzzle the reader.
  // (Renaming the tag in transformTags instead trips sanitize-html's closing-tag map for later links.)
  exclusiveFilter: (frame) => (frame.tag === 'img' && !frame.attribs.src) || (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
};

/** Article HTML reduced to the allowlist; links get rel="noopener noreferrer". */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

export const SANITIZER_ALLOWED_TAGS: readonly string[] = ALLOWED_TAGS;
