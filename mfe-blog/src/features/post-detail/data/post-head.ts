import { blogPostPath } from '@site/contracts/blog-routes';
import type { PageMeta } from '@site/contracts/manifest';
import { socialImageOf } from '@site/contracts/media-rules';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_SOCIAL_IMAGE, PLACEHOLDER_SOCIAL_IMAGE_SIZE } from '@site/contracts/posts-rules';
import type { Post } from '@site/contracts/posts';

const SITE_NAME = 'Tri-Valley AI Automation';

/**
 * The head of `/blog/:slug`: title, description, canonical, og tags and Article JSON-LD of a published post.
 * The server renders it into the HTML (through the route table's `head`) and the page sets the same
 * `document.title`. URLs are site paths; the server makes them absolute with the public origin.
 */
export function postHead(post: Post): PageMeta {
  const path = blogPostPath(post.slug);
  // Link previews do not render SVG: the placeholder goes out as its JPEG twin. An image of the media library goes out
  // as its 1200x630 Open Graph variant (never the upload itself, which may be a 16x16 icon), with its size.
  const social = post.ogImage === PLACEHOLDER_IMAGE ? { url: PLACEHOLDER_SOCIAL_IMAGE, ...PLACEHOLDER_SOCIAL_IMAGE_SIZE } : socialImageOf(post.ogImage);
  const image = social.url;
  return {
    path,
    title: `${post.title} | ${SITE_NAME}`,
    description: post.metaDescription,
    canonical: path,
    keywords: post.keywords.length ? post.keywords : undefined,
    ogType: 'article',
    image,
    ...(social.width && social.height ? { imageWidth: social.width, imageHeight: social.height } : {}),
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
