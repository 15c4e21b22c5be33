import { describe, expect, it } from 'vitest';
import { escapeXml } from '../feeds';

describe('escapeXml', () => {
  it('escapes markup and drops the characters XML 1.0 forbids', () => {
    expect(escapeXml(`a<b & "c" 'd'>`)).toBe('a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;');
    expect(escapeXml('bell\u0007 nul\u0000 vt\u000b ff\u000c esc\u001b end\ufffe\uffff')).toBe('bell nul vt ff esc end');
  });

  it('keeps tab, line breaks and characters beyond U+FFFF', () => {
    expect(escapeXml('tab\tline\nreturn\r')).toBe('tab\tline\nreturn\r');
    expect(escapeXml('Café 🤖 \ud7ff\ue000\ufffd')).toBe('Café 🤖 \ud7ff\ue000\ufffd');
  });
});
