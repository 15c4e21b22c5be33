import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from '../sanitize';

describe('sanitizeArticleHtml (second layer)', () => {
  it('removes scripts, handlers, javascript: links, SVG and styles; links get rel', () => {
    const out = sanitizeArticleHtml(
      '<h2>Hi</h2><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' +
        '<svg onload=alert(1)></svg><p style="color:red">p</p><a href="https://ok.example" target="_top">ok</a>',
    );
    expect(out).not.toMatch(/script|onerror|javascript:|svg|style=|_top/i);
    expect(out).toContain('<h2>Hi</h2>');
    expect(out).toContain('rel="noopener noreferrer"');
  });
});
