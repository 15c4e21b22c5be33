import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMAGE_URL_PATTERN, isImageUrl } from '../posts-rules';
import { textPattern, textProblem, type TextOptions } from '../text';

// The JSON Schema patterns of the API description say exactly what the zod checks do (a pattern is read with the u flag).
const chars = fc.string({ unit: fc.oneof(fc.constantFrom(' ', '\t', '\n', '\r', '\u0007', '\u0085', '\u00a0', '\u202e', '\u2066', '\u2028', '\ud800', '\udfff', 'é', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

describe('textPattern', () => {
  const cases: Array<[string, TextOptions]> = [['one line', {}], ['multi-line', { multiline: true }], ['HTML', { multiline: true, bidi: true }]];
  for (const [name, options] of cases) {
    it(`matches exactly the ${name} values safeText accepts`, () => {
      const pattern = new RegExp(textPattern(options), 'u');
      fc.assert(fc.property(chars, (value) => pattern.test(value) === (textProblem(value, options) === undefined)), { numRuns: 2000 });
    });
    for (const minLength of [1, 2, 5]) {
      it(`with minLength ${minLength}, also "at least that long once trimmed" (${name})`, () => {
        const pattern = new RegExp(textPattern({ ...options, minLength }), 'u');
        fc.assert(
          fc.property(chars, (value) => {
            const accepted = textProblem(value, options) === undefined && value.trim().length >= minLength;
            // Exact, but for characters beyond U+FFFF: JSON Schema counts them once, the server (UTF-16) twice.
            return pattern.test(value) ? accepted : !accepted || ASTRAL.test(value);
          }),
          { numRuns: 2000 },
        );
      });
    }
  }
});

it('every address IMAGE_URL_PATTERN allows passes isImageUrl', () => {
  const pattern = new RegExp(IMAGE_URL_PATTERN, 'u');
  fc.assert(fc.property(fc.stringMatching(pattern, { maxLength: 60 }), (value) => isImageUrl(value)), { numRuns: 1000 });
  // A label beginning with xn-- claims punycode the URL parser may refuse ('httP://Xn--' was once found here).
  for (const refused of ['//evil.example/x.png', 'javascript:alert(1)', 'http://a b', '/a"onerror=x', 'httP://Xn--', 'http://xn--zz.example/a.png', 'https://cdn.XN--a/b.png']) {
    expect(pattern.test(refused), refused).toBe(false);
  }
  for (const allowed of ['', '/mfe/blog/a.png', 'https://cdn.example/a.png', 'http://x.example', 'http://xn.example:8080/a.png', 'http://xn-a.x-/b.png', 'https://ab--c.example/a']) {
    expect(pattern.test(allowed), allowed).toBe(true);
    expect(isImageUrl(allowed), allowed).toBe(true);
  }
});
