import { describe, expect, it } from 'vitest';
import { BLOG_ROUTES, blogCategoryPath, blogPostPath } from '@site/contracts/blog-routes';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_SOCIAL_IMAGE, type Post } from '@site/contracts/posts';
import { routes } from '../routes';

const post: Post = {
  id: 'p1',
  title: 'Chatbots for dentists',
  slug: 'chatbots-for-dentists',
  excerpt: 'How a practice answers patients after hours.',
  content: '<p>…</p>',
  keywords: ['dentist', 'chatbot'],
  author: 'Tri-Valley AI Team',
  publishedAt: '2026-01-10T09:00:00.000Z',
  publishAt: null,
  createdAt: '2026-01-09T09:00:00.000Z',
  updatedAt: '2026-01-11T09:00:00.000Z',
  status: 'published',
  featuredImage: PLACEHOLDER_IMAGE,
  category: 'Case Studies',
  categorySlug: 'case-studies',
  readTime: 3,
  views: 0,
  metaDescription: 'A Danville dental practice answers patient questions at night with a small chatbot.',
  ogImage: PLACEHOLDER_IMAGE,
  source: 'local',
};

const postRoute = routes.find((r) => r.path === '/blog/:slug')!;

describe('the blog route table', () => {
  it('declares every blog URL, the static page metadata, and the post page as a dynamic page on the post', () => {
    expect(routes.map((r) => r.path)).toEqual(['/blog', '/blog/category/:category', '/blog/:slug']);
    expect(routes[0]!.meta).toMatchObject({ path: '/blog', title: 'AI Automation Blog | Tri-Valley AI Automation', canonical: '/blog' });
    expect(postRoute.data).toEqual({ source: 'post', param: 'slug' });
  });

  it('is the shared blog URL scheme, so the addresses the API builds (feed, sitemap, webhook) are these pages', () => {
    // The API fills post and category addresses from @site/contracts/blog-routes (api/src/posts/feeds.ts);
    // these are the very patterns this router and the server's page rendering match.
    expect(routes.map((r) => r.path)).toEqual([BLOG_ROUTES.home, BLOG_ROUTES.category, BLOG_ROUTES.post]);
    expect(postRoute.head!({ slug: post.slug }, post).canonical).toBe(blogPostPath(post.slug));
    const categoryRoute = routes.find((r) => r.path === BLOG_ROUTES.category)!;
    const data = { lists: [] };
    expect(categoryRoute.head!({ category: 'case-studies' }, data).canonical).toBe(blogCategoryPath('case-studies'));
  });

  it("gives a post page the post's title, description, canonical, social image and Article JSON-LD", () => {
    expect(postRoute.head!({ slug: post.slug }, post)).toEqual({
      path: '/blog/chatbots-for-dentists',
      title: 'Chatbots for dentists | Tri-Valley AI Automation',
      description: post.metaDescription,
      canonical: '/blog/chatbots-for-dentists',
      keywords: ['dentist', 'chatbot'],
      ogType: 'article',
      // Link previews do not render SVG.
      image: PLACEHOLDER_SOCIAL_IMAGE,
      imageWidth: 1200,
      imageHeight: 630,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: 'Chatbots for dentists',
        description: post.metaDescription,
        image: [PLACEHOLDER_SOCIAL_IMAGE],
        datePublished: '2026-01-10T09:00:00.000Z',
        dateModified: '2026-01-11T09:00:00.000Z',
        author: { '@type': 'Person', name: 'Tri-Valley AI Team' },
        publisher: { '@type': 'Organization', name: 'Tri-Valley AI Automation', url: '/' },
        mainEntityOfPage: { '@type': 'WebPage', '@id': '/blog/chatbots-for-dentists' },
        articleSection: 'Case Studies',
        keywords: 'dentist, chatbot',
      },
    });
  });

  it("previews an image of the media library as its 1200x630 Open Graph variant with that size, never the upload itself", () => {
    const hash = '0123456789abcdef01234567';
    // A post with only a featured image: the API's ogImage falls back to the upload (here a 16x16 icon).
    for (const ogImage of [`/media/${hash}-16x16.png`, `/media/${hash}-og.jpg`]) {
      const meta = postRoute.head!({ slug: post.slug }, { ...post, featuredImage: `/media/${hash}-16x16.png`, ogImage });
      expect(meta, ogImage).toMatchObject({ image: `/media/${hash}-og.jpg`, imageWidth: 1200, imageHeight: 630 });
      expect(meta.jsonLd, ogImage).toMatchObject({ image: [`/media/${hash}-og.jpg`] });
    }
  });

  it('keeps an absolute og image, falls back to the creation date, and omits empty keywords', () => {
    const meta = postRoute.head!({ slug: post.slug }, { ...post, ogImage: 'https://cdn.example.com/x.png', publishedAt: null, keywords: [] });
    expect(meta.image).toBe('https://cdn.example.com/x.png');
    // Its size is not known without fetching it: no og:image:width or height rather than a guess.
    expect(meta.imageWidth).toBeUndefined();
    expect(meta.keywords).toBeUndefined();
    expect(meta.jsonLd).toMatchObject({ datePublished: post.createdAt, keywords: '' });
  });
});
