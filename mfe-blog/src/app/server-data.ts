import type { QueryClient } from '@tanstack/react-query';
import type { Post } from '@site/contracts/posts';
import type { PostListData, SiteData } from '@site/ui';
import { postKey } from '../features/post-detail/hooks/use-post';
import { postListKey } from '../lib/use-post-list';

/**
 * Puts the data the server rendered this page with into the query cache under the keys the pages ask for, so
 * their first render (the hydration) shows it and nothing is fetched again while it is fresh.
 */
export function seedServerData(client: QueryClient, site: SiteData | null): void {
  if (!site || site.remote !== 'blog' || site.data === undefined) return;
  if (site.source === 'post') {
    const post = site.data as Post;
    const slugInUrl = decodeURIComponent(site.path.slice(site.path.lastIndexOf('/') + 1));
    for (const slug of new Set([post.slug, slugInUrl])) client.setQueryData(postKey(slug), post);
  } else if (site.source === 'post-list') {
    for (const { filter, list } of (site.data as PostListData).lists) {
      client.setQueryData(postListKey(filter), { pages: [list], pageParams: [null] });
    }
  }
}
