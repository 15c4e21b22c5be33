import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactRequestSchema } from '../contact';
import { isImageUrl } from '../posts';
import { isRecordKey, textProblem, TEXT_MESSAGES } from '../text';

describe('textProblem (the one rule every text field shares)', () => {
  it('refuses lone surrogates, C0/C1 controls and bidi overrides and isolates, naming the code point', () => {
    expect(textProblem('Cafe \ud800')).toBe(TEXT_MESSAGES.loneSurrogate);
    expect(textProblem('x\udfff')).toBe(TEXT_MESSAGES.loneSurrogate);
    expect(textProblem('Ada\u0000')).toBe(`${TEXT_MESSAGES.control} (found U+0000)`);
    expect(textProblem('evil \u202etxt.exe')).toBe(`${TEXT_MESSAGES.control} (found U+202E)`);
    for (const c of ['\u0007', '\u001b', '\u007f', '\u0085', '\u202a', '\u202d', '\u2066', '\u2069']) expect(textProblem(`a${c}b`)).toBeDefined();
  });

  it('accepts ordinary text: emoji (paired surrogates), accents, right-to-left script, LRM/RLM marks', () => {
    for (const ok of ['Café Noël', 'Pizza 🍕 & más', 'مطعم', 'שלום\u200f', 'A–Z “quoted”']) expect(textProblem(ok)).toBeUndefined();
  });

  it('keeps tab and line breaks only in multi-line fields; bidi controls only where allowed (HTML)', () => {
    expect(textProblem('a\nb')).toBeDefined();
    expect(textProblem('a\r\n\tb', { multiline: true })).toBeUndefined();
    expect(textProblem('a\u202eb', { multiline: true })).toBeDefined();
    expect(textProblem('a\u202eb', { multiline: true, bidi: true })).toBeUndefined();
    expect(textProblem('a\u0000b', { multiline: true, bidi: true })).toBeDefined();
  });

  it('no string with a forbidden character passes the contact form (property)', () => {
    const bad = fc.constantFrom('\u0000', '\u0008', '\u001f', '\u202e', '\u2068', '\ud800');
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), bad, fc.string({ maxLength: 20 }), (a, c, b) => {
        const name = `Ada ${a}${c}${b}`;
        return !contactRequestSchema.safeParse({ name, email: 'ada@example.com', message: 'Please call me back soon.' }).success;
      }),
    );
  });
});

describe('isImageUrl and isRecordKey', () => {
  it('images: http(s) URLs with a host or site paths, nothing that can break out of an attribute', () => {
    for (const ok of ['', '/mfe/blog/a.png', 'https://cdn.example/a%20b.png?w=1&h=2#x', 'http://example.com/a.png']) expect(isImageUrl(ok), ok).toBe(true);
    for (const bad of ['https://x/a".png', "https://x/a'.png", 'https://x/<a>.png', '/a b.png', '//evil.example/a.png', 'javascript:alert(1)', 'https://', 'ftp://x/a.png', 'data:image/png;base64,xx']) {
      expect(isImageUrl(bad), bad).toBe(false);
    }
  });

  it('record keys: ids and UUIDs, never NUL, slashes or spaces', () => {
    expect(isRecordKey('3f1c9a4e-2b7d-4c1e-9a55-0d6f2e8b7c10')).toBe(true);
    for (const bad of ['', '\u0000', 'a b', '../x', 'a/b', 'x'.repeat(200)]) expect(isRecordKey(bad)).toBe(false);
  });
});
