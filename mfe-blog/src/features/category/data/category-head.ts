import { BLOG_ROUTES, blogCategoryPath } from '@site/contracts/blog-routes';
import type { PageMeta } from '@site/contracts/manifest';
import { categoryNameForSlug } from '@site/contracts/posts-rules';
import type { PostListData } from '@site/ui';

/** The category's name: from its posts when the server loaded them, else the offered categories or the slug. */
export function categoryName(slug: string, data?: PostListData): string {
  return categoryNameForSlug(slug, data?.lists.flatMap((l) => l.list.posts.map((p) => p.category)));
}

/** The head of `/blog/category/:category` (the route table's `head`: the server writes it into the HTML). */
export function categoryHead(params: Record<string, string>, data?: PostListData): PageMeta {
  const slug = (params.category ?? '').toLowerCase();
  return categoryPageHead(slug, categoryName(slug, data));
}

/** The head of a category page once its name is known (the page passes it to usePageHead with its posts' name). */
export function categoryPageHead(slug: string, name: string): PageMeta {
  const path = blogCategoryPath(slug);
  const description = `Articles about ${name} from Tri-Valley AI Automation.`;
  return {
    path,
    title: `${name} | AI Automation Blog`,
    description,
    canonical: path,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'CollectionPage',
      name: `${name} | AI Automation Blog`,
      description,
      url: path,
      isPartOf: { '@type': 'Blog', name: 'AI Automation Blog', url: BLOG_ROUTES.home },
    },
  };
}
