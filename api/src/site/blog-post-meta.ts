import type { PageMeta } from '@site/contracts/manifest';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_SOCIAL_IMAGE } from '@site/contracts/posts';
import { matchRoutePattern } from '@site/contracts/route-match';
import { NotFoundError } from '../lib/domain-errors';
import type { PostService } from '../services/post-service';
import type { PageMetaResolver } from './page-meta';

const SITE_NAME = 'Tri-Valley AI Automation';
const absolute = (origin: string, pathOrUrl: string) => (/^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${origin}${pathOrUrl}`);

/**
 * `/blog/:slug` in the served HTML: the post's title, description, canonical, og tags and Article JSON-LD;
 * an unknown or unpublished slug is 'not-found' (HTTP 404). `/blog/category/...` and `/blog/rss.xml` are left alone.
 */
export function blogPostMetaResolver(options: { posts: PostService; publicOrigin: string }): PageMetaResolver {
  return async (path) => {
    const params = matchRoutePattern('/blog/:slug', path);
    if (!params || params.slug === 'category') return null;
    let post;
    try {
      post = await options.posts.getPublished(params.slug!);
    } catch (error) {
      if (error instanceof NotFoundError) return 'not-found';
      throw error;
    }
    const url = `${options.publicOrigin}/blog/${post.slug}`;
    // Link previews do not render SVG: the placeholder goes out as its JPEG twin.
    const image = absolute(options.publicOrigin, post.ogImage === PLACEHOLDER_IMAGE ? PLACEHOLDER_SOCIAL_IMAGE : post.ogImage);
    const meta: PageMeta = {
      path: `/blog/${post.slug}`,
      title: `${post.title} | ${SITE_NAME}`,
      description: post.metaDescription,
      canonical: `/blog/${post.slug}`,
      keywords: post.keywords.length ? post.keywords : undefined,
      ogType: 'article',
      image,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: post.title,
        description: post.metaDescription,
        image: [image],
        datePublished: post.publishedAt ?? post.createdAt,
        dateModified: post.updatedAt,
        author: { '@type': 'Person', name: post.author },
        publisher: { '@type': 'Organization', name: SITE_NAME, url: options.publicOrigin },
        mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        articleSection: post.category,
        keywords: post.keywords.join(', '),
      },
    };
    return meta;
  };
}
