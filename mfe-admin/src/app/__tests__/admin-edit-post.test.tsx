import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { AdminPostUpdate } from '@site/contracts/admin';
import { adminEditPostPath, type Post } from '@site/contracts/posts';
import { EDIT_POST_ROUTE } from '../../config/pages';
import { valuesFromPost } from '../../features/posts/lib/post-form-values';
import { server } from '../../../../vitest.msw';
import { envelope, makePost, renderAdmin, servePostList, serveRevisions, serveSession, WEBHOOK_EXAMPLE } from './admin-test-kit';

function servePost(post: Post) {
  server.use(http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)));
  serveRevisions(post.id);
}

describe('Edit post', { timeout: 20_000 }, () => {
  it("unknown id -> 'Post not found'; a failing server -> 'Error fetching post. Please try again.'", async () => {
    serveSession();
    server.use(
      http.get('/api/admin/posts/missing', () => envelope(404, 'not_found', 'Post not found')),
      http.get('/api/admin/posts/broken', () => envelope(500, 'internal', 'boom')),
    );
    const first = renderAdmin('/admin/posts/missing/edit');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' })).toBeTruthy();
    first.unmount();
    renderAdmin('/admin/posts/broken/edit');
    expect(await screen.findByText('Error fetching post. Please try again.')).toBeTruthy();
  });

  it('saves with the updatedAt it loaded; a 409 says someone else changed it and reloads instead of overwriting', async () => {
    serveSession();
    const loaded = makePost();
    const theirs = makePost({ title: 'Changed by the n8n workflow', updatedAt: '2024-03-02T08:00:00.000Z', source: 'n8n' });
    servePost(loaded);
    const bodies: AdminPostUpdate[] = [];
    server.use(
      http.put(`/api/admin/posts/${loaded.id}`, async ({ request }) => {
        bodies.push((await request.json()) as AdminPostUpdate);
        return envelope(409, 'conflict', 'This post was changed elsewhere since you opened it. Reload it to see the latest version.', { current: theirs });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${loaded.id}/edit`);
    const title = (await screen.findByLabelText(/^Title/)) as HTMLInputElement;
    expect(title.value).toBe(loaded.title);
    await user.clear(title);
    await user.type(title, 'My own better title');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Someone else changed this post while you were editing it.')).toBeTruthy();
    expect(bodies[0]!.expectedUpdatedAt).toBe(loaded.updatedAt);
    expect(bodies[0]!.title).toBe('My own better title');
    expect(title.value).toBe('My own better title');

    await user.click(screen.getByRole('button', { name: 'Reload the latest version' }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Changed by the n8n workflow');
    // Nothing typed is lost: the writer's version is kept and offered.
    await user.click(screen.getByRole('button', { name: 'Restore draft' }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('My own better title');

    server.use(
      http.put(`/api/admin/posts/${loaded.id}`, async ({ request }) => {
        const body = (await request.json()) as AdminPostUpdate;
        bodies.push(body);
        return HttpResponse.json({ ...theirs, title: body.title, updatedAt: '2024-03-02T09:00:00.000Z' });
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Post updated')).toBeTruthy();
    expect(bodies[1]!.expectedUpdatedAt).toBe(theirs.updatedAt);
  });

  it('keeps a local draft while typing and offers to restore it after a reload', async () => {
    serveSession();
    const post = makePost();
    servePost(post);
    const user = userEvent.setup({ delay: null });
    const first = renderAdmin(`/admin/posts/${post.id}/edit`);
    const excerpt = await screen.findByLabelText(/^Excerpt/);
    await user.type(excerpt, ' Typed before the crash.');
    // The page is hidden (tab closed, reload): the draft is written at once, as it is every few seconds.
    act(() => {
      fireEvent(window, new Event('pagehide'));
    });
    const stored = JSON.parse(localStorage.getItem(`admin:post-draft:${post.id}`)!) as { values: { excerpt: string }; baseUpdatedAt: string };
    expect(stored.values.excerpt).toBe(`${post.excerpt} Typed before the crash.`);
    expect(stored.baseUpdatedAt).toBe(post.updatedAt);
    first.unmount();

    renderAdmin(`/admin/posts/${post.id}/edit`);
    const offer = await screen.findByRole('region', { name: 'Unsaved draft' });
    expect(within(offer).getByText(/Unsaved changes from .* were found on this device\./)).toBeTruthy();
    expect((screen.getByLabelText(/^Excerpt/) as HTMLTextAreaElement).value).toBe(post.excerpt);
    await user.click(within(offer).getByRole('button', { name: 'Restore draft' }));
    expect((screen.getByLabelText(/^Excerpt/) as HTMLTextAreaElement).value).toBe(`${post.excerpt} Typed before the crash.`);
    expect(screen.queryByRole('region', { name: 'Unsaved draft' })).toBeNull();
  });

  it('withdraws the offer of an older draft once the owner types, and keeps what was typed', async () => {
    serveSession();
    const post = makePost();
    servePost(post);
    localStorage.setItem(
      `admin:post-draft:${post.id}`,
      JSON.stringify({ values: { ...valuesFromPost(post), excerpt: `${post.excerpt} An older draft.` }, savedAt: '2026-01-15T17:00:00.000Z', baseUpdatedAt: post.updatedAt }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    const offer = await screen.findByRole('region', { name: 'Unsaved draft' });
    // In the business's zone, named (not the browser's without saying so).
    expect(within(offer).getByText('Unsaved changes from Jan 15, 2026, 9:00 AM PST were found on this device.')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Author/), ' and friends');
    // Restore would now overwrite what was just typed: the offer is gone, and what is on screen is what is kept.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unsaved draft' })).toBeNull());
    act(() => {
      fireEvent(window, new Event('pagehide'));
    });
    const stored = JSON.parse(localStorage.getItem(`admin:post-draft:${post.id}`)!) as { values: { author: string; excerpt: string } };
    expect(stored.values.author).toBe(`${post.author} and friends`);
    expect(stored.values.excerpt).toBe(post.excerpt);
  });

  it('autosaves every few seconds without any event', async () => {
    serveSession();
    const post = makePost();
    servePost(post);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    await user.type(await screen.findByLabelText(/^Author/), ' and friends');
    await waitFor(() => expect(localStorage.getItem(`admin:post-draft:${post.id}`)).toContain('and friends'), { timeout: 4500 });
    expect(screen.getByText(/Draft kept on this device at/)).toBeTruthy();
  });

  it('Delete asks "… This action cannot be undone." and returns to the list', async () => {
    serveSession();
    const post = makePost();
    servePost(post);
    servePostList([]);
    let deleted = false;
    server.use(http.delete(`/api/admin/posts/${post.id}`, () => ((deleted = true), new HttpResponse(null, { status: 204 }))));
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin(`/admin/posts/${post.id}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this post? This action cannot be undone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(location()).toBe('/admin/posts'));
    expect(deleted).toBe(true);
  });

  it('asks before leaving with unsaved changes through a link', async () => {
    serveSession();
    const post = makePost();
    servePost(post);
    servePostList([post]);
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin(`/admin/posts/${post.id}/edit`);
    await user.type(await screen.findByLabelText(/^Title/), ' (updated)');
    await user.click(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Dashboard' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(location()).toBe(`/admin/posts/${post.id}/edit`);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe(`${post.title} (updated)`);

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave page' }));
    await waitFor(() => expect(location()).toBe('/admin/posts'));
  });
});

describe('Blog Posts list', { timeout: 20_000 }, () => {
  it('lists every post with status, category, dates and views; Publish only for drafts', async () => {
    serveSession();
    const draft = makePost({ id: 'd1', title: 'A draft about chatbots' });
    const live = makePost({ id: 'p1', title: 'A published case study', status: 'published', publishedAt: '2024-01-15T09:00:00.000Z', views: 1250, category: 'Case Studies' });
    const requests = servePostList([draft, live]);
    let published = '';
    server.use(http.post('/api/admin/posts/:id/publish', ({ params }) => ((published = String(params.id)), HttpResponse.json({ ...draft, status: 'published' }))));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    await screen.findByText('A published case study');
    const items = screen.getAllByRole('listitem');
    const draftItem = items.find((li) => li.textContent?.includes('A draft about chatbots'))!;
    const liveItem = items.find((li) => li.textContent?.includes('A published case study'))!;
    expect(within(draftItem).getByText('draft')).toBeTruthy();
    expect(within(liveItem).getByText('published')).toBeTruthy();
    expect(within(liveItem).getByText('Case Studies')).toBeTruthy();
    expect(within(liveItem).getByText(/1,250 views/)).toBeTruthy();
    expect(within(liveItem).getByText('Jan 15, 2024')).toBeTruthy();
    expect(within(liveItem).queryByRole('button', { name: /^Publish/ })).toBeNull();
    await user.click(within(draftItem).getByRole('button', { name: /^Publish/ }));
    await waitFor(() => expect(published).toBe('d1'));

    await user.selectOptions(screen.getByLabelText('Status'), 'published');
    await waitFor(() => expect(requests.at(-1)!.searchParams.get('status')).toBe('published'));
    await user.type(screen.getByLabelText('Search posts'), 'case');
    await waitFor(() => expect(requests.at(-1)!.searchParams.get('q')).toBe('case'));
  });

  it('the webhook documentation names this endpoint, the fields and the signature, never a secret', async () => {
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    expect(within(docs).getByText(`POST ${window.location.origin}/api/webhook`)).toBeTruthy();
    for (const field of ['title', 'excerpt', 'content', 'author', 'category', 'metaDescription', 'keywords', 'featuredImage', 'ogImage', 'status']) {
      expect(within(docs).getAllByText(field).length).toBeGreaterThan(0);
    }
    expect(docs.textContent).toContain('X-Webhook-Signature: t=<unix seconds>,v1=<hex>');
    expect(await within(docs).findByRole('button', { name: 'Copy curl example (bash)' })).toBeTruthy();
    // The examples are the API description's (GET /api/openapi.json), sent as a draft by the curl example.
    expect(docs.textContent).toContain(`BODY='${JSON.stringify({ ...WEBHOOK_EXAMPLE, status: 'draft' })}'`);
    expect(docs.textContent).toContain('"status": "scheduled"');
    expect(docs.textContent).toContain('HTTP Request');
    expect(within(docs).getByRole('link', { name: 'OpenAPI 3.1 (/api/openapi.json)' }).getAttribute('href')).toBe('/api/openapi.json');
  });

  it('the webhook examples say when the API description cannot be loaded, and load on Try again', async () => {
    serveSession();
    servePostList([]);
    server.use(http.get('/api/openapi.json', () => envelope(500, 'internal', 'boom'), { once: true }));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    const failed = await within(docs).findAllByText('The example could not be loaded.');
    expect(failed.length).toBe(2);
    await user.click(within(docs).getAllByRole('button', { name: 'Try again' })[0]!);
    expect(await within(docs).findByRole('button', { name: 'Copy curl example (bash)' })).toBeTruthy();
    expect(within(docs).queryByText('The example could not be loaded.')).toBeNull();
  });

  it("the webhook documentation says the answer's adminUrl is the edit page, and url comes with published posts only", async () => {
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    expect(docs.textContent).toContain('201 with { id, slug, status, adminUrl, url }: adminUrl is the post\'s edit page in this panel; url, its public page, comes only with a published post (a draft has none until you publish it here).');
    // The edit page the API links (adminEditPostPath) is this remote's edit route.
    expect(matchPath(EDIT_POST_ROUTE, adminEditPostPath('3f1c9a4e-2b7d'))?.params.id).toBe('3f1c9a4e-2b7d');
  });

  it('Delete in the list asks "Are you sure you want to delete this post?"; a failure says so', async () => {
    serveSession();
    const post = makePost();
    servePostList([post]);
    server.use(http.delete(`/api/admin/posts/${post.id}`, () => envelope(500, 'internal', 'boom')));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    await user.click(await screen.findByRole('button', { name: /^Delete/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this post?')).toBeTruthy();
    expect(within(dialog).getByText(post.title)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Error deleting post. Please try again.')).toBeTruthy();
  });
});
