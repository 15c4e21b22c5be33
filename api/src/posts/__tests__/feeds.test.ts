import { describe, expect, it } from 'vitest';
import { BLOG_FEED_PATH, BLOG_ROUTES, blogCategoryPath, blogPostPath } from '@site/contracts/blog-routes';
import { PLACEHOLDER_IMAGE, type PostSummary } from '@site/contracts/posts';
import { bestRouteMatch } from '@site/contracts/route-match';
import { escapeXml, pageEntries, postEntries, renderRss } from '../feeds';

const summary = (slug: string, categorySlug: string): PostSummary => ({
  id: slug,
  title: `Post ${slug}`,
  slug,
  excerpt: 'An excerpt.',
  keywords: [],
  author: 'Tri-Valley AI Team',
  publishedAt: '2026-01-10T09:00:00.000Z',
  publishAt: null,
  createdAt: '2026-01-09T09:00:00.000Z',
  updatedAt: '2026-01-11T09:00:00.000Z',
  status: 'published',
  featuredImage: PLACEHOLDER_IMAGE,
  category: categorySlug,
  categorySlug,
  readTime: 2,
  views: 0,
  metaDescription: 'A description.',
  ogImage: PLACEHOLDER_IMAGE,
  source: 'local',
});

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

describe('feed and sitemap addresses', () => {
  const posts = [summary('chatbots-for-dentists', 'case-studies'), summary('category', 'ai-automation')];
  const blogPatterns = Object.values(BLOG_ROUTES);

  it("are the blog route table's pages: each post and category address routes to its page with its slug", () => {
    const entries = [...pageEntries([], ['case-studies', 'ai-automation'], undefined), ...postEntries(posts)].map((e) => e.path);
    expect(entries).toEqual([
      BLOG_ROUTES.home,
      blogCategoryPath('case-studies'),
      blogCategoryPath('ai-automation'),
      blogPostPath('chatbots-for-dentists'),
      blogPostPath('category'),
    ]);
    expect(entries.map((path) => bestRouteMatch(blogPatterns, path))).toEqual([
      { pattern: BLOG_ROUTES.home, params: {} },
      { pattern: BLOG_ROUTES.category, params: { category: 'case-studies' } },
      { pattern: BLOG_ROUTES.category, params: { category: 'ai-automation' } },
      { pattern: BLOG_ROUTES.post, params: { slug: 'chatbots-for-dentists' } },
      { pattern: BLOG_ROUTES.post, params: { slug: 'category' } },
    ]);
  });

  it("links each RSS item to the post's page, the channel to the blog and the feed to itself", () => {
    const xml = renderRss(posts, { publicOrigin: 'https://example.test', title: 'T', description: 'D' });
    const links = [...xml.matchAll(/<link>(.*?)<\/link>/g)].map((m) => m[1]);
    expect(links).toEqual([`https://example.test${BLOG_ROUTES.home}`, ...posts.map((p) => `https://example.test${blogPostPath(p.slug)}`)]);
    expect(xml).toContain(`<atom:link href="https://example.test${BLOG_FEED_PATH}"`);
  });
});

describe('the image of a feed item', () => {
  const origin = 'https://example.test';
  const media = '/media/0123456789abcdef01234567-1600x900.jpg';
  const item = (featuredImage: string, files = new Map<string, { bytes: number; type: string }>()) =>
    /<item>[\s\S]*<\/item>/.exec(renderRss([{ ...summary('a-post', 'case-studies'), featuredImage }], { publicOrigin: origin, title: 'T', description: 'D', files }))![0];

  it('is an enclosure with the length and type the site serves it with, when the site knows them', () => {
    const files = new Map([[media, { bytes: 48_213, type: 'image/jpeg' }]]);
    expect(item(media, files)).toContain(`<enclosure url="${origin}${media}" length="48213" type="image/jpeg" />`);
    // The same image written as an absolute address on the site.
    expect(item(`${origin}${media}`, files)).toContain(`<enclosure url="${origin}${media}" length="48213" type="image/jpeg" />`);
  });

  it('is nothing for the placeholder, or a library file not made yet; an image elsewhere is named without a size', () => {
    expect(item(PLACEHOLDER_IMAGE)).not.toMatch(/<enclosure|<media:content/);
    expect(item(media)).not.toMatch(/<enclosure|<media:content/);
    expect(item('https://cdn.example/a&b.png')).toContain('<media:content url="https://cdn.example/a&amp;b.png" medium="image" />');
    expect(item('https://cdn.example/a.png')).not.toContain('<enclosure');
    expect(renderRss([], { publicOrigin: origin, title: 'T', description: 'D' })).toContain('xmlns:media="http://search.yahoo.com/mrss/"');
  });
});
