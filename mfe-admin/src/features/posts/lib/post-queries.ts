import type { QueryClient } from '@tanstack/react-query';
import type { AdminPostListQueryInput } from '@site/contracts/admin';
import type { Post } from '@site/contracts/posts';

/**
 * The posts feature's cache keys, one tree: invalidating `lists()` reaches every page and filter of the list,
 * `revisions(id)` every page of one post's history.
 */
export const postKeys = {
  all: ['posts'] as const,
  lists: () => ['posts', 'list'] as const,
  list: (query: AdminPostListQueryInput) => ['posts', 'list', query] as const,
  deleted: () => ['posts', 'deleted'] as const,
  detail: (id: string) => ['posts', 'detail', id] as const,
  revisions: (id: string) => ['posts', 'detail', id, 'revisions'] as const,
  revisionPage: (id: string, page: number) => ['posts', 'detail', id, 'revisions', { page }] as const,
  /** A revision never changes once written: kept apart from the history's pages, which do. */
  revision: (id: string, revisionId: string) => ['posts', 'revision', id, revisionId] as const,
  preview: (content: string) => ['posts', 'preview', content] as const,
  /** The delete mutation's key: a screen can tell one is under way (`useIsMutating`). */
  deleting: () => ['posts', 'delete'] as const,
};

/**
 * The server answered a post's new state (saved, published, scheduled, restored…): the post is cached as answered,
 * and the lists and its history, which that answer changed, are asked again. Not awaited: the screen follows the
 * answer at once, and the lists follow when theirs arrive.
 */
export function postChanged(client: QueryClient, post: Post): void {
  client.setQueryData(postKeys.detail(post.id), post);
  void client.invalidateQueries({ queryKey: postKeys.lists() });
  void client.invalidateQueries({ queryKey: postKeys.revisions(post.id) });
}
