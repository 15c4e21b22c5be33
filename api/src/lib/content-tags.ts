/*
 * Names of what a cached page was made from (site/render/render-cache.ts), shared by the services that change content (they
 * say which tags a change touches) and the site that tags each page it renders. Also sent to CDNs as surrogate keys
 * (`Surrogate-Key`, `Cache-Tag`), so a change can be purged there by the same names.
 */

/** A published post's page (`/blog/<slug>`). */
export const postTag = (slug: string) => `post:${slug}`;
/** A category's page (`/blog/category/<slug>`). */
export const categoryTag = (slug: string) => `category:${slug.toLowerCase()}`;
/** The blog's index (`/blog`, with any filter). */
export const POST_INDEX_TAG = 'posts:index';
/** A shared analysis report (`/free-analysis/report/<id>`). */
export const analysisTag = (id: string) => `analysis:${id}`;
/** Every page a remote renders (its deploys and rollbacks change the page's key; a CDN purges by this). */
export const remoteTag = (name: string) => `remote:${name}`;

/** The tags of a page from its route's data source and param (remotes' route tables: `data: { source, param }`). */
export function dataTags(source: string | undefined, param: string | undefined): string[] {
  if (source === 'post' && param !== undefined) return [postTag(param)];
  if (source === 'post-list') return [param === undefined ? POST_INDEX_TAG : categoryTag(param)];
  if (source === 'analysis-report' && param !== undefined) return [analysisTag(param)];
  return [];
}

/**
 * What a change of a post touches, from the post before and after it (either absent for a create or a delete): its
 * page under each slug, the index and each category it was or is in, while published. A draft changing touches no
 * public page: nothing.
 */
export function postChangeTags(...versions: Array<{ slug: string; categorySlug: string; status: string } | undefined>): string[] {
  const published = versions.filter((post): post is NonNullable<typeof post> => post?.status === 'published');
  if (published.length === 0) return [];
  return [...new Set([POST_INDEX_TAG, ...published.flatMap((post) => [postTag(post.slug), categoryTag(post.categorySlug)])])];
}
