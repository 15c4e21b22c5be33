import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminPostCreate, AdminPostList, DeletedPost } from '@site/contracts/admin';
import type { Post } from '@site/contracts/posts';
import { server } from '../../../../../vitest.msw';
import { AdminQueryProvider, createAdminQueryClient } from '../../../lib/query-client';
import { useCreatePostMutation } from '../api/create-post';
import { useDeletePostMutation } from '../api/delete-post';
import { useDeletedPostsQuery } from '../api/list-deleted-posts';
import { usePostsQuery } from '../api/list-posts';
import { usePublishPostMutation } from '../api/publish-post';

/* The posts feature's mutations keep what is on screen true by invalidating it: a list mounted while a post is
   created, published or deleted is asked again (answers are stale at once, but a mounted query is not refetched
   without a reason: the invalidation is that reason). */

const post = (id: string, title: string, extra: Partial<Post> = {}): Post => ({
  id,
  title,
  slug: id,
  excerpt: 'An excerpt long enough for the rules.',
  content: '<p>Content</p>',
  keywords: [],
  author: 'Admin',
  publishedAt: null,
  publishAt: null,
  createdAt: '2024-03-01T10:00:00.000Z',
  updatedAt: '2024-03-01T10:00:00.000Z',
  status: 'draft',
  featuredImage: '/mfe/blog/placeholder.svg',
  category: 'AI Automation',
  categorySlug: 'ai-automation',
  readTime: 1,
  views: 0,
  metaDescription: 'A meta description long enough for the rules of the spec to accept it.',
  ogImage: '/mfe/blog/placeholder.svg',
  source: 'local',
  ...extra,
});

/** A tiny API over `posts`: list, create, publish, delete (into 'deleted'); counts the list requests. */
function serveStore(posts: Post[]) {
  const deleted: DeletedPost[] = [];
  const calls = { lists: 0, deleted: 0 };
  const list = (): AdminPostList => ({
    posts: posts.map(({ content: _c, ...summary }) => summary),
    total: posts.length,
    limit: 50,
    nextCursor: null,
    prevCursor: null,
    counts: { draft: posts.filter((p) => p.status === 'draft').length, scheduled: 0, published: posts.filter((p) => p.status === 'published').length, archived: 0 },
  });
  server.use(
    http.get('/api/admin/posts', () => ((calls.lists += 1), HttpResponse.json(list()))),
    http.get('/api/admin/posts/deleted', () => ((calls.deleted += 1), HttpResponse.json({ posts: deleted }))),
    http.post('/api/admin/posts', async ({ request }) => {
      const body = (await request.json()) as AdminPostCreate;
      const created = post(`p${posts.length + 1}`, body.title);
      posts.push(created);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.post('/api/admin/posts/:id/publish', ({ params }) => {
      const i = posts.findIndex((p) => p.id === params.id);
      posts[i] = { ...posts[i]!, status: 'published', publishedAt: '2024-03-02T10:00:00.000Z' };
      return HttpResponse.json(posts[i]);
    }),
    http.delete('/api/admin/posts/:id', ({ params }) => {
      const i = posts.findIndex((p) => p.id === params.id);
      const [gone] = posts.splice(i, 1);
      deleted.push({ id: gone!.id, title: gone!.title, slug: gone!.slug, status: gone!.status, deletedAt: '2024-03-03T10:00:00.000Z', purgeAt: '2024-04-02T10:00:00.000Z' });
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return calls;
}

/** The list and Recently deleted on screen, with buttons that run the mutations. */
function Screen() {
  const list = usePostsQuery({ limit: 50 });
  const gone = useDeletedPostsQuery();
  const create = useCreatePostMutation();
  const publish = usePublishPostMutation();
  const remove = useDeletePostMutation();
  const input: AdminPostCreate = { title: 'A new post about salons', excerpt: 'x', content: 'x', author: 'x', category: 'x', metaDescription: 'x', keywords: [] };
  return (
    <>
      <ul aria-label="Posts">
        {list.data?.posts.map((p) => (
          <li key={p.id}>
            {p.title} ({p.status})
          </li>
        ))}
      </ul>
      <ul aria-label="Deleted">
        {gone.data?.map((p) => (
          <li key={p.id}>{p.title}</li>
        ))}
      </ul>
      <button onClick={() => create.mutate(input)}>Create</button>
      <button onClick={() => publish.mutate('p1')}>Publish p1</button>
      <button onClick={() => remove.mutate('p1')}>Delete p1</button>
    </>
  );
}

function renderScreen() {
  render(
    <AdminQueryProvider client={createAdminQueryClient()}>
      <Screen />
    </AdminQueryProvider>,
  );
  return { posts: () => screen.getByRole('list', { name: 'Posts' }), deleted: () => screen.getByRole('list', { name: 'Deleted' }) };
}

describe('Posts cache', () => {
  it('a created post appears in the list on screen (the list is invalidated and asked again)', async () => {
    const calls = serveStore([post('p1', 'The first post')]);
    const user = userEvent.setup({ delay: null });
    const { posts } = renderScreen();
    expect(await within(posts()).findByText('The first post (draft)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await within(posts()).findByText('A new post about salons (draft)')).toBeTruthy();
    expect(calls.lists).toBe(2);
  });

  it('a published post shows its new status in the list on screen', async () => {
    serveStore([post('p1', 'The first post')]);
    const user = userEvent.setup({ delay: null });
    const { posts } = renderScreen();
    await within(posts()).findByText('The first post (draft)');
    await user.click(screen.getByRole('button', { name: 'Publish p1' }));
    expect(await within(posts()).findByText('The first post (published)')).toBeTruthy();
  });

  it('a deleted post leaves the list and joins Recently deleted, both on screen', async () => {
    const calls = serveStore([post('p1', 'The first post'), post('p2', 'The second post')]);
    const user = userEvent.setup({ delay: null });
    const { posts, deleted } = renderScreen();
    await within(posts()).findByText('The first post (draft)');
    await waitFor(() => expect(calls.deleted).toBe(1));
    expect(within(deleted()).queryByText('The first post')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete p1' }));
    expect(await within(deleted()).findByText('The first post')).toBeTruthy();
    await waitFor(() => expect(within(posts()).queryByText('The first post (draft)')).toBeNull());
    expect(within(posts()).getByText('The second post (draft)')).toBeTruthy();
  });
});
