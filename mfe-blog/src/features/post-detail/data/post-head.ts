import { blogPostPath } from '@site/contracts/blog-routes';
import type { PageMeta } from '@site/contracts/manifest';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_SOCIAL_IMAGE } from '@site/contracts/posts-rules';
import type { Post } from '@site/contracts/posts';

const SITE_NAME = 'Tri-Valley AI Automation';

/**
 * The head of `/blog/:slug`: title, description, canonical, og tags and Article JSON-LD of a published post.
 * The server renders it into the HTML (through the route table's `head`) and the page sets the same
 * `document.title`. URLs are site paths; the server makes them absolute with the public origin.
 */
export function postHead(post: Post): PageMeta {
  const path = blogPostPath(post.slug);
  // Link previews do not render SVG: the placeholder goes out as its JPEG twin.
  const image = post.ogImage === PLACEHOLDER_IMAGE ? PLACEHOLDER_SOCIAL_IMAGE : post.ogImage;
  return {
    path,
    title: `${post.title} | ${SITE_NAME}`,
    description: post.metaDescription,
    canonical: path,
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
      publisher: { '@type': 'Organization', name: SITE_NAME, url: '/' },
      mainEntityOfPage: { '@type': 'WebPage', '@id': path },
      articleSection: post.category,
      keywords: post.keywords.join(', '),
    },
  };
}
