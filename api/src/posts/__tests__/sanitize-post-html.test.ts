// @ts-expect-error jsdom ships no types in this workspace; the test only needs JSDOM's document.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { SANITIZER_ALLOWED_TAGS, sanitizePostHtml } from '../sanitize-post-html';

/** Known XSS payloads: script tags, event handlers, javascript:/data: URLs, SVG/MathML, malformed nesting, encodings. */
export const XSS_CORPUS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>',
  '<script>alert(String.fromCharCode(88,83,83))</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>alert(1);//<</script>',
  '<script/xss src="http://xss.example/x.js"></script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<IMG SRC="javascript:alert(1);">',
  '<IMG SRC=javascript:alert(1)>',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert(1)`>',
  '<img src="jav&#x09;ascript:alert(1);">',
  '<img src="jav&#x0A;ascript:alert(1);">',
  '<img src=" &#14;  javascript:alert(1);">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#49;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x31&#x29>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<img/src=x/onerror=alert(1)>',
  '<img """><script>alert(1)</script>">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JAVASCRIPT:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="java\tscript:alert(1)">click</a>',
  '<a href="&#x6A;avascript:alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="//evil.example/x">protocol relative</a>',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<a href="https://ok.example" onmouseover=alert(1)>ok</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg/onload=alert(1)//',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math><a xlink:href="javascript:alert(1)">x</a></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:text/html,<script>alert(1)</script>">',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<style>@import "http://xss.example/x.css";</style>',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<td background="javascript:alert(1)">x</td>',
  '<p><b onmouseover=alert(1)>bold</b></p>',
  '<div><p>unclosed <b>nesting <i>here</p></div><script>alert(1)',
  '</p><script>alert(1)</script><p>',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<isindex action="javascript:alert(1)" type=image>',
  '<a href="https://ok.example" target="_top">target</a>',
  '"><script>alert(document.cookie)</script>',
  "'';!--\"<XSS>=&{()}",
  '<img src="https://ok.example/a.png" onload="alert(1)">',
  '<img srcset="javascript:alert(1) 1x">',
  '<code class="language-js" onclick="alert(1)">x</code>',
  '<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>',
  '<h2 id="x" onclick="alert(1)">heading</h2>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
];

const URL_ATTRS = ['href', 'src', 'cite', 'action', 'formaction', 'background', 'srcset', 'xlink:href', 'data'];

/** Parses sanitized output in a real DOM and lists what should not be there. */
function problems(html: string): string[] {
  const found: string[] = [];
  const doc = new JSDOM(`<!doctype html><body>${html}</body>`).window.document;
  for (const el of doc.body.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (!SANITIZER_ALLOWED_TAGS.includes(tag)) found.push(`tag <${tag}>`);
    for (const attr of el.getAttributeNames()) {
      if (/^on/i.test(attr)) found.push(`handler ${attr} on <${tag}>`);
      if (attr === 'style' || attr === 'srcdoc' || attr === 'srcset') found.push(`attribute ${attr}`);
      if (URL_ATTRS.includes(attr)) {
        // Browsers drop control characters and spaces in URLs: remove everything up to U+0020.
        const value = (el.getAttribute(attr) ?? '').replace(/[^\u0021-\uffff]/g, '').toLowerCase();
        if (!/^(?:https?:|mailto:|tel:|\/[^/]|#|$)/.test(value) && /^[a-z][a-z0-9+.-]*:/.test(value)) found.push(`${attr}=${value}`);
        if (value.startsWith('//')) found.push(`protocol-relative ${attr}`);
      }
    }
    if (tag === 'a' && el.getAttribute('rel') !== 'noopener noreferrer') found.push('link without rel');
  }
  const lower = html.toLowerCase();
  for (const needle of ['<script', '<svg', '<iframe', '<style', '<math', 'javascript:', 'vbscript:', 'data:']) {
    if (lower.includes(needle)) found.push(`text ${needle}`);
  }
  return found;
}

describe('sanitizePostHtml', () => {
  it('has a corpus of at least 50 payloads', () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(XSS_CORPUS.map((p) => [p]))('neutralises %s', (payload) => {
    const once = sanitizePostHtml(payload);
    expect(problems(once)).toEqual([]);
    // Wrapped in legitimate content too, and stable when sanitized again.
    const wrapped = sanitizePostHtml(`<p>before</p>${payload}<p>after</p>`);
    expect(problems(wrapped)).toEqual([]);
    expect(sanitizePostHtml(once)).toBe(once);
  });

  it('keeps the article tags a post needs', () => {
    const html =
      '<h2>Heading</h2><p>Text with <strong>bold</strong>, <em>em</em> and <a href="https://example.com">a link</a>.</p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><pre><code>code</code></pre>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>' +
      '<img src="https://example.com/a.png" alt="A">';
    const out = sanitizePostHtml(html);
    for (const tag of ['h2', 'strong', 'em', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'table', 'th', 'td', 'img']) {
      expect(out).toContain(`<${tag}`);
    }
    expect(out).toContain('<a href="https://example.com" rel="noopener noreferrer">a link</a>');
    expect(out).toContain('src="https://example.com/a.png"');
  });

  it('adds rel to every link and keeps only target=_blank', () => {
    expect(sanitizePostHtml('<a href="https://a.example" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://a.example" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizePostHtml('<a href="https://a.example" target="_top">x</a>')).toBe('<a href="https://a.example" rel="noopener noreferrer">x</a>');
  });

  it('turns a link with an unsafe or missing address into its plain text', () => {
    expect(sanitizePostHtml('<p>Read <a href="javascript:alert(1)">our guide</a> today</p>')).toBe('<p>Read our guide today</p>');
    expect(sanitizePostHtml('<p><a href="data:text/html,x">data</a> <a>bare</a> <a href="#top">top</a></p>')).toBe(
      '<p>data bare <a href="#top" rel="noopener noreferrer">top</a></p>',
    );
  });

  it('keeps escaped code as text', () => {
    expect(sanitizePostHtml('<pre><code>&lt;script&gt;</code></pre>')).toBe('<pre><code>&lt;script&gt;</code></pre>');
  });
});
