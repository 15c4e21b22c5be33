import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { htmlToText, viewsResultCheck } from '../posts-rules';
import {
  viewsResultSchema,
  cardExcerpt,
  normalizePostInput,
  parseKeywords,
  postInputSchema,
  postValidationMessages,
  readTime,
  slugify,
  titleCaseSlug,
  categoryNameForSlug,
  categoryIllustration,
  BLOG_CATEGORIES,
  uniqueSlug,
  validationFailedMessage,
} from '../posts';

const valid = {
  title: 'A valid title',
  excerpt: 'An excerpt that is long enough.',
  content: 'x'.repeat(100),
  author: 'Jo',
  category: 'AI Automation',
  metaDescription: 'm'.repeat(50),
};

describe('post validation', () => {
  it('accepts a valid post', () => {
    expect(postValidationMessages(normalizePostInput(valid))).toEqual([]);
  });

  it('reports every spec message, in order, after trimming', () => {
    const input = normalizePostInput({
      title: '  abcd    ',
      excerpt: ' short ',
      content: `   ${'x'.repeat(99)}   `,
      author: ' J ',
      category: ' A ',
      metaDescription: ` ${'m'.repeat(49)} `,
    });
    const messages = postValidationMessages(input);
    expect(validationFailedMessage(messages)).toBe(
      'Validation failed: Title must be at least 5 characters long, Excerpt must be at least 20 characters long, ' +
        'Content must be at least 100 characters long, Author name must be at least 2 characters long, ' +
        'Category must be at least 2 characters long, Meta description must be at least 50 characters long',
    );
  });

  it('has upper bounds', () => {
    expect(postValidationMessages(normalizePostInput({ ...valid, title: 't'.repeat(201) }))).toEqual([
      'Title must be at most 200 characters long',
    ]);
  });

  it('keeps keywords trimmed, non-empty and unique', () => {
    expect(normalizePostInput({ ...valid, keywords: [' AI ', '', 'ai', 'Chatbots'] }).keywords).toEqual(['AI', 'Chatbots']);
    expect(parseKeywords(' a, ,b ,, c ')).toEqual(['a', 'b', 'c']);
  });

  it('refuses non-http image URLs', () => {
    expect(postInputSchema.safeParse({ ...valid, featuredImage: 'javascript:alert(1)' }).success).toBe(false);
    expect(postInputSchema.safeParse({ ...valid, featuredImage: 'data:image/png;base64,xx' }).success).toBe(false);
    expect(postInputSchema.safeParse({ ...valid, featuredImage: 'https://example.com/a.png' }).success).toBe(true);
  });
});

describe('slug', () => {
  it('lowercases, dashes spaces, drops non-alphanumerics', () => {
    expect(slugify('How AI Chatbots Are Revolutionizing Customer Service!')).toBe('how-ai-chatbots-are-revolutionizing-customer-service');
    expect(slugify('  Café & Bistro: 2024  ')).toBe('cafe-bistro-2024');
    expect(slugify('!!!')).toBe('post');
  });

  it('always yields a URL-safe slug', () => {
    fc.assert(fc.property(fc.string(), (s) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slugify(s))));
  });

  it('numbers clashes -2, -3', () => {
    expect(uniqueSlug('a', new Set())).toBe('a');
    expect(uniqueSlug('a', new Set(['a']))).toBe('a-2');
    expect(uniqueSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
  });
});

describe('read time', () => {
  it('is words / 200 rounded up, at least 1, counting text only', () => {
    expect(readTime('')).toBe(1);
    expect(readTime(`<p>${'word '.repeat(200)}</p>`)).toBe(1);
    expect(readTime(`<p>${'word '.repeat(201)}</p>`)).toBe(2);
    expect(readTime(`<h2 class="x">a</h2><p>${'<strong>w</strong> '.repeat(400)}</p>`)).toBe(3);
  });
});

describe('htmlToText', () => {
  it('keeps the visible text: tags, script and style content dropped, entities decoded', () => {
    expect(htmlToText('<p>Hello <b>there</b></p><script>var x = "<p>no</p>";</script><STYLE>p{}</STYLE> &amp; bye')).toBe('Hello there & bye');
    expect(htmlToText('1 < 2 and <b>x')).toBe('1 x');
    expect(htmlToText('a < b')).toBe('a < b');
    expect(htmlToText('<script>never closed <p>text</p>')).toBe('never closed text');
    expect(htmlToText('<scripts>is not a script</scripts>')).toBe('is not a script');
  });

  // One pass over a post body of the largest size: the former patterns took 5 s over 100,000 '<' (event loop held).
  it.each([
    ['<', '<'],
    ['<script', '<script'],
    ['<script>', '<script>'],
    ['</', '</'],
  ])('reads 200,000 characters of %s in linear time', (_name, unit) => {
    const text = unit.repeat(Math.ceil(200_000 / unit.length));
    const started = performance.now();
    htmlToText(text);
    // Generous for a slow machine; the quadratic version needs seconds here.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('display helpers', () => {
  it('cuts card excerpts to 150 characters', () => {
    const long = 'word '.repeat(60);
    const cut = cardExcerpt(long);
    expect(cut.length).toBeLessThanOrEqual(151);
    expect(cut.endsWith('…')).toBe(true);
    expect(cardExcerpt('short')).toBe('short');
  });

  it('shows category slugs in Title Case', () => {
    expect(titleCaseSlug('how-to-guides')).toBe('How To Guides');
  });

  it('maps a category slug back to its real name, Title Case only for unknown ones', () => {
    expect(categoryNameForSlug('how-to-guides')).toBe('How-To Guides');
    expect(categoryNameForSlug('AI-Automation')).toBe('AI Automation');
    expect(categoryNameForSlug('ai-robotics', ['AI & Robotics'])).toBe('AI & Robotics');
    expect(categoryNameForSlug('garden-tools')).toBe('Garden Tools');
  });

  it('gives each offered category its own card illustration', () => {
    const images = BLOG_CATEGORIES.map((c) => categoryIllustration(c));
    expect(new Set(images).size).toBe(4);
    expect(categoryIllustration('How-To Guides')).toBe('/mfe/blog/categories/how-to-guides.svg');
    expect(categoryIllustration('Gardening')).toBeUndefined();
  });
});

describe('viewsResultCheck: the zod-free check of POST /api/posts/:slug/views answers', () => {
  it('accepts and refuses exactly what viewsResultSchema does', () => {
    const answers = fc.oneof(
      fc.record({ views: fc.oneof(fc.integer({ min: -5, max: 1e9 }), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER + 2), fc.string(), fc.constant(null)) }),
      fc.anything(),
      fc.array(fc.integer()),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        const zod = viewsResultSchema.safeParse(answer);
        const check = viewsResultCheck.safeParse(answer);
        expect(check.success).toBe(zod.success);
        if (zod.success && check.success) expect(check.data).toEqual(zod.data);
      }),
      { numRuns: 2000 },
    );
  });
});
