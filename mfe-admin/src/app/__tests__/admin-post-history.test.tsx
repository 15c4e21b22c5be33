import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, REVISION_IS_CURRENT, type PostRevision } from '@site/contracts/admin';
import { formatInBusinessZone } from '@site/contracts/post-schedule';
import type { Post } from '@site/contracts/posts';
import { server } from '../../../../vitest.msw';
import { envelope, makePost, makeRevision, renderAdmin, serveRevisions, serveSession } from './admin-test-kit';

// The screens are lazy and transformed on their first import: load them before the first test's clock starts.
beforeAll(async () => {
  await Promise.all([import('../../features/auth/components/admin-frame'), import('../../features/posts/components/edit-post-page')]);
}, 60_000);

const current = makePost({
  title: 'Chatbots for Danville restaurants',
  content: '<h2>Why it matters</h2><p>Guests ask the same questions every evening, and a chatbot answers them at once.</p>',
  updatedAt: '2024-03-04T12:00:00.000Z',
});
const older = makePost({
  title: 'Chatbots for restaurants',
  content: '<h2>Why it matters</h2><p>Guests ask the same questions every night, and staff answer them by phone.</p>',
  metaDescription: 'An older meta description about chatbots for the restaurants of Danville.',
});

/** 12 revisions, newest first: #12 is the current version, #1 the first draft. */
function history(): PostRevision[] {
  const out: PostRevision[] = [];
  for (let n = 12; n >= 1; n--) {
    const post = n === 1 ? older : current;
    out.push(
      makeRevision(
        {
          id: `rev-${n}`,
          number: n,
          action: n === 1 ? 'create' : n === 12 ? 'update' : 'update',
          author: n === 1 ? { kind: 'webhook', label: 'n8n webhook' } : { kind: 'admin', label: 'Admin' },
          createdAt: new Date(Date.UTC(2024, 2, 1, 10, n)).toISOString(),
          changedFields: n === 1 ? ['title', 'content', 'metaDescription'] : ['excerpt', 'metaDescription'],
        },
        post,
      ),
    );
  }
  return out;
}

function serveEditable(post: Post, revisions = history()) {
  server.use(http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)));
  return serveRevisions(post.id, revisions);
}

describe('History', { timeout: 20_000 }, () => {
  it('lists revisions newest first with author, time and changed fields, page by page', async () => {
    serveSession();
    const requests = serveEditable(current);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    const list = await within(panel).findByRole('list', { name: 'Revisions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(10);
    expect(items[0]!.textContent).toContain('#12');
    expect(items[0]!.textContent).toContain('current');
    expect(items[0]!.textContent).toContain('by Admin');
    expect(items[0]!.textContent).toContain(formatInBusinessZone('2024-03-01T10:12:00.000Z'));
    expect(items[0]!.textContent).toContain('Changed: Excerpt, Meta description');
    expect(requests[0]!.searchParams.get('page')).toBe('1');

    await user.click(within(panel).getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(2));
    const first = within(panel).getAllByRole('listitem')[1]!;
    expect(first.textContent).toContain('#1');
    expect(first.textContent).toContain('Created');
    expect(first.textContent).toContain('by n8n webhook');
    expect(requests.at(-1)!.searchParams.get('page')).toBe('2');
  });

  it('shows a version against the current one: fields then / now, the text as a word diff, and its preview', async () => {
    serveSession();
    serveEditable(current);
    server.use(http.post('/api/admin/posts/preview', async ({ request }) => HttpResponse.json(await request.json())));
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    await user.click(await within(panel).findByRole('button', { name: 'Older' }));
    await user.click(await within(panel).findByRole('button', { name: /#1 Created/ }));

    const heading = await within(panel).findByRole('heading', { name: 'Revision #1: Created' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const fields = await within(panel).findByLabelText('Changed fields');
    expect(fields.textContent).toContain('Title');
    expect(fields.textContent).toContain('ThenChatbots for restaurants');
    expect(fields.textContent).toContain('NowChatbots for Danville restaurants');
    expect(fields.textContent).toContain('Meta description');

    const diff = within(panel).getByLabelText('Content differences');
    const removed = [...diff.querySelectorAll('del')].map((d) => d.textContent);
    const added = [...diff.querySelectorAll('ins')].map((d) => d.textContent);
    expect(removed.join(' ')).toContain('[removed: night');
    expect(removed.join(' ')).toContain('staff');
    expect(added.join(' ')).toContain('[added: evening');
    expect(added.join(' ')).toContain('chatbot');
    // Text, not markup: no tags in the diff.
    expect(diff.textContent).not.toContain('<p>');
    expect(diff.textContent).toContain('Why it matters');

    await user.click(within(panel).getByRole('button', { name: 'Preview of this version' }));
    const preview = await within(panel).findByRole('region', { name: 'Preview of revision 1' });
    expect(within(preview).getByRole('heading', { name: 'Chatbots for restaurants' })).toBeTruthy();
    expect(preview.textContent).toContain('staff answer them by phone');

    // The current version compared with itself.
    await user.click(within(panel).getByRole('button', { name: 'Newer' }));
    await user.click(await within(panel).findByRole('button', { name: /#12 Edited/ }));
    // Another version opens on its differences.
    expect(await within(panel).findByText('This version is the same as the current one.')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Differences' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('restores a version after confirming, with the updatedAt the form loaded; the form and the history reload', async () => {
    serveSession();
    const requests = serveEditable(current);
    let body: unknown = null;
    const restored = { ...current, title: older.title, content: older.content, metaDescription: older.metaDescription, updatedAt: '2024-03-05T09:00:00.000Z' };
    server.use(
      http.post(`/api/admin/posts/${current.id}/revisions/:revisionId/restore`, async ({ request, params }) => {
        body = { revision: params.revisionId, ...((await request.json()) as object) };
        return HttpResponse.json(restored);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    await user.click(await within(panel).findByRole('button', { name: 'Older' }));
    await user.click(await within(panel).findByRole('button', { name: /#1 Created/ }));
    await user.click(await within(panel).findByRole('button', { name: 'Restore this version' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Restore this version?' });
    expect(dialog.textContent).toContain('revision #1');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(body).toBeNull();

    const before = requests.length;
    await user.click(within(panel).getByRole('button', { name: 'Restore this version' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore this version' }));
    expect(await screen.findByText('Version restored')).toBeTruthy();
    expect(body).toEqual({ revision: 'rev-1', expectedUpdatedAt: current.updatedAt });
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe(older.title);
    expect((screen.getByLabelText(/^Meta description/) as HTMLTextAreaElement).value).toBe(older.metaDescription);
    await waitFor(() => expect(requests.length).toBeGreaterThan(before));
    expect(requests.at(-1)!.searchParams.get('page')).toBe('1');
  });

  it('offers no Restore for a version that is the current one: "Current version" instead, images and status aside', async () => {
    serveSession();
    const revisions = history();
    // #11: the same fields, but saved with no image (the post shows the placeholder) and while it was published (a
    // restore keeps the status): restoring it would change nothing either.
    const eleven = revisions[1]!;
    revisions[1] = { ...eleven, post: { ...eleven.post, featuredImage: null, ogImage: null, status: 'published', publishedAt: '2024-03-01T10:11:00.000Z' } };
    // #10: another excerpt: a real change.
    revisions[2] = { ...revisions[2]!, post: { ...revisions[2]!.post, excerpt: 'An excerpt the post no longer has, from an earlier save.' } };
    serveEditable(current, revisions);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });

    for (const name of [/#12 Edited/, /#11 Edited/]) {
      await user.click(await within(panel).findByRole('button', { name }));
      const label = await within(panel).findByText('Current version');
      expect(label.textContent).toBe('Current version: restoring it would change nothing');
      expect(within(panel).queryByRole('button', { name: 'Restore this version' })).toBeNull();
    }
    await user.click(within(panel).getByRole('button', { name: /#10 Edited/ }));
    expect(await within(panel).findByRole('button', { name: 'Restore this version' })).toBeTruthy();
    expect(within(panel).queryByText('Current version')).toBeNull();
    await user.click(await within(panel).findByRole('button', { name: 'Older' }));
    await user.click(await within(panel).findByRole('button', { name: /#1 Created/ }));
    expect(await within(panel).findByRole('button', { name: 'Restore this version' })).toBeTruthy();
  });

  it('says so when the server answers that the version is already the current one, with no conflict notice', async () => {
    serveSession();
    serveEditable(current);
    server.use(
      http.post(`/api/admin/posts/${current.id}/revisions/:revisionId/restore`, () => envelope(409, REVISION_IS_CURRENT.code, REVISION_IS_CURRENT.message)),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    await user.click(await within(panel).findByRole('button', { name: 'Older' }));
    await user.click(await within(panel).findByRole('button', { name: /#1 Created/ }));
    await user.click(await within(panel).findByRole('button', { name: 'Restore this version' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore this version' }));
    expect(await screen.findByText(REVISION_IS_CURRENT.message)).toBeTruthy();
    expect(screen.queryByText('Someone else changed this post while you were editing it.')).toBeNull();
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe(current.title);
  });

  it('a 409 shows the form’s conflict notice and restores nothing; reloading loads their version', async () => {
    serveSession();
    serveEditable(current);
    const theirs = { ...current, title: 'Changed by the n8n workflow', updatedAt: '2024-03-06T08:00:00.000Z', source: 'n8n' as const };
    server.use(
      http.post(`/api/admin/posts/${current.id}/revisions/:revisionId/restore`, () => envelope(409, 'conflict', ADMIN_MESSAGES.postConflict, { current: theirs })),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    await user.click(await within(panel).findByRole('button', { name: 'Older' }));
    await user.click(await within(panel).findByRole('button', { name: /#1 Created/ }));
    await user.click(await within(panel).findByRole('button', { name: 'Restore this version' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Restore this version' }));

    const notice = await screen.findByText('Someone else changed this post while you were editing it.');
    expect(notice.closest('[role="alert"]')!.textContent).toContain(ADMIN_MESSAGES.postConflict);
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe(current.title);
    expect(screen.queryByText('Version restored')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reload the latest version' }));
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Changed by the n8n workflow');
  });

  it('says so when the history cannot be loaded, and tries again', async () => {
    serveSession();
    server.use(http.get(`/api/admin/posts/${current.id}`, () => HttpResponse.json(current)));
    let fail = true;
    server.use(
      http.get(`/api/admin/posts/${current.id}/revisions`, () =>
        fail ? envelope(500, 'internal', 'boom') : HttpResponse.json({ revisions: [], total: 0, page: 1, limit: 10 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${current.id}/edit`);
    const panel = await screen.findByRole('region', { name: 'History' });
    expect(await within(panel).findByText('Could not load the history')).toBeTruthy();
    fail = false;
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByText('No versions recorded yet.')).toBeTruthy();
  });
});
