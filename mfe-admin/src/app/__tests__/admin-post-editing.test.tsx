import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type AdminPostCreate } from '@site/contracts/admin';
import { businessLocalToIso, toBusinessLocalInput } from '@site/contracts/post-schedule';
import { server } from '../../../../vitest.msw';
import { envelope, loggedOut, makePost, renderAdmin, serveRevisions, serveSession } from './admin-test-kit';

/* The form's state after the move to react-hook-form and TanStack Query: what a writer sees when a save, a schedule
   or a second visit meets the server's version of the post. */

const DAY = 24 * 60 * 60 * 1000;

// The screens are lazy and transformed on their first import: load them before the first test's clock starts.
beforeAll(async () => {
  await Promise.all([
    import('../../features/auth/components/admin-frame'),
    import('../../features/posts/components/edit-post-page'),
    import('../../features/posts/components/posts-page'),
  ]);
}, 60_000);
const pickerLabel = 'Publish on (Pacific Time (Los Angeles))';

describe('Editing against the server', { timeout: 20_000 }, () => {
  it('a 409 when scheduling shows the conflict notice (focused), keeps what was typed, and reloads their version on request', async () => {
    serveSession();
    const post = makePost();
    const theirs = makePost({ title: 'Changed by the n8n workflow', updatedAt: '2024-03-02T08:00:00.000Z', source: 'n8n' });
    server.use(
      http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)),
      http.post(`/api/admin/posts/${post.id}/schedule`, () => envelope(409, 'conflict', ADMIN_MESSAGES.postConflict, { current: theirs })),
    );
    serveRevisions(post.id);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule post' });
    const local = `${toBusinessLocalInput(new Date(Date.now() + 3 * DAY)).slice(0, 10)}T10:30`;
    expect(businessLocalToIso(local)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(pickerLabel), { target: { value: local } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    const notice = (await screen.findByText('Someone else changed this post while you were editing it.')).closest('[role="alert"]') as HTMLElement;
    expect(notice.textContent).toContain(ADMIN_MESSAGES.postConflict);
    expect(notice.textContent).toContain('(it came from the n8n webhook)');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe(post.title);

    await user.click(within(notice).getByRole('button', { name: 'Reload the latest version' }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Changed by the n8n workflow');
    expect(await screen.findByText('Loaded the latest version of the post')).toBeTruthy();
  });

  it("the server's messages go at the next change, and the form's own checks take over", async () => {
    serveSession();
    const post = makePost();
    server.use(
      http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)),
      http.put(`/api/admin/posts/${post.id}`, () =>
        envelope(400, 'validation_failed', 'Validation failed: featuredImage: Image must be an http(s) URL or a site path', [
          'featuredImage: Image must be an http(s) URL or a site path',
        ]),
      ),
    );
    serveRevisions(post.id);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    const title = (await screen.findByLabelText(/^Title/)) as HTMLInputElement;
    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const summary = await screen.findByText('Validation failed: featuredImage: Image must be an http(s) URL or a site path');
    await waitFor(() => expect(document.activeElement).toBe(summary.closest('[role="alert"]')));
    const image = screen.getByLabelText(/^Featured image URL/);
    expect(image.getAttribute('aria-invalid')).toBe('true');

    // A change elsewhere: the server's verdict is gone.
    await user.type(screen.getByLabelText(/^Author/), 's');
    await waitFor(() => expect(image.getAttribute('aria-invalid')).toBeNull());
    expect(screen.queryByText(/^Validation failed/)).toBeNull();

    // A change that breaks a rule: the form's own message, live.
    await user.clear(title);
    await user.type(title, 'Hey');
    expect(await screen.findByText('Validation failed: Title must be at least 5 characters long')).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
  });

  it('an edit page opened again starts from the version stored now, not the one seen on the first visit', async () => {
    serveSession();
    let stored = makePost({ id: 'p1', title: 'The title on the first visit' });
    const bodies: { expectedUpdatedAt: string }[] = [];
    server.use(
      http.get('/api/admin/posts/p1', () => HttpResponse.json(stored)),
      http.get('/api/admin/posts', () => {
        const { content: _c, ...summary } = stored;
        return HttpResponse.json({ posts: [summary], total: 1, limit: 50, nextCursor: null, prevCursor: null, counts: { draft: 1, scheduled: 0, published: 0, archived: 0 } });
      }),
      // The posts page's webhook documentation may read the API description; its content does not matter here.
      http.get('/api/openapi.json', () => HttpResponse.json({})),
      http.put('/api/admin/posts/p1', async ({ request }) => {
        const body = (await request.json()) as AdminPostCreate & { expectedUpdatedAt: string };
        bodies.push(body);
        return HttpResponse.json({ ...stored, title: body.title, updatedAt: '2024-03-05T00:00:00.000Z' });
      }),
    );
    serveRevisions('p1');
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin('/admin/posts/p1/edit');
    expect(((await screen.findByLabelText(/^Title/)) as HTMLInputElement).value).toBe('The title on the first visit');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(location()).toBe('/admin/posts'));
    await screen.findByRole('link', { name: 'The title on the first visit' });

    // Changed elsewhere meanwhile (the webhook), then opened again from the list.
    stored = { ...stored, title: 'Changed by the n8n workflow', updatedAt: '2024-03-04T00:00:00.000Z' };
    await user.click(screen.getByRole('link', { name: 'Edit “The title on the first visit”' }));
    await waitFor(() => expect(location()).toBe('/admin/posts/p1/edit'));
    const title = await waitFor(() => {
      const field = screen.getByLabelText(/^Title/) as HTMLInputElement;
      expect(field.value).toBe('Changed by the n8n workflow');
      return field;
    });
    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Post updated')).toBeTruthy();
    expect(bodies.map((b) => b.expectedUpdatedAt)).toEqual(['2024-03-04T00:00:00.000Z']);
  });
});

describe('Admin Access gate while logins are refused', { timeout: 20_000 }, () => {
  it('Enter in the emptied field sends nothing and keeps the reason', async () => {
    serveSession(loggedOut);
    let attempts = 0;
    server.use(
      http.post('/api/admin/login', () => {
        attempts += 1;
        return HttpResponse.json({ error: { code: 'rate_limited', message: ADMIN_MESSAGES.tooManyAttempts } }, { status: 429, headers: { 'Retry-After': '600' } });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin');
    const field = (await screen.findByLabelText(/Password/)) as HTMLInputElement;
    await user.type(field, 'guess');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(ADMIN_MESSAGES.tooManyAttempts)).toBeTruthy();
    expect(field.value).toBe('');
    expect(document.activeElement).toBe(field);

    await user.keyboard('{Enter}');
    expect(screen.getByText(ADMIN_MESSAGES.tooManyAttempts)).toBeTruthy();
    expect(screen.queryByText(ADMIN_MESSAGES.passwordRequired)).toBeNull();
    expect(attempts).toBe(1);
  });
});
