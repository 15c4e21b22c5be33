import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RESTORED_AS_DRAFT, type AdminPostSchedule, type AdminPostUpdate, type DeletedPost } from '@site/contracts/admin';
import { businessLocalToIso, formatInBusinessZone, toBusinessLocalInput } from '@site/contracts/post-schedule';
import type { Post } from '@site/contracts/posts';
import { server } from '../../../../vitest.msw';
import { envelope, makePost, renderAdmin, servePostList, serveRevisions, serveSession } from './admin-test-kit';

const DAY = 24 * 60 * 60 * 1000;
/** A wall-clock time `days` ahead in the business's zone, as the picker takes it, and the ISO the form must send. */
function aheadBy(days: number, time = '10:30') {
  const local = `${toBusinessLocalInput(new Date(Date.now() + days * DAY)).slice(0, 10)}T${time}`;
  return { local, iso: businessLocalToIso(local)! };
}

const pickerLabel = 'Publish on (Pacific Time (Los Angeles))';

function itemOf(title: string) {
  const item = screen.getAllByRole('listitem').find((li) => li.querySelector('h3')?.textContent === title);
  if (!item) throw new Error(`No list item titled ${title}`);
  return item;
}

describe('Scheduling from the list', { timeout: 20_000 }, () => {
  it('Schedule (drafts) sends the chosen Pacific time with its offset; the list then shows the time, zone named', async () => {
    serveSession();
    const draft = makePost({ id: 'd1', title: 'A draft about chatbots' });
    const posts: Post[] = [draft];
    servePostList(posts);
    const bodies: AdminPostSchedule[] = [];
    server.use(
      http.post('/api/admin/posts/:id/schedule', async ({ request, params }) => {
        const body = (await request.json()) as AdminPostSchedule;
        bodies.push(body);
        const scheduled = { ...draft, id: String(params.id), status: 'scheduled' as const, publishAt: new Date(body.publishAt).toISOString(), updatedAt: '2024-03-02T00:00:00.000Z' };
        posts[0] = scheduled;
        return HttpResponse.json(scheduled);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    await screen.findByText('A draft about chatbots');
    // The filter offers the new status with its count.
    expect(within(screen.getByLabelText('Status')).getByRole('option', { name: 'Scheduled (0)' })).toBeTruthy();

    await user.click(within(itemOf('A draft about chatbots')).getByRole('button', { name: /^Schedule/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule post' });
    const input = within(dialog).getByLabelText(pickerLabel) as HTMLInputElement;
    expect(input.type).toBe('datetime-local');
    expect(document.activeElement).toBe(input);

    // A time in the past is refused before anything is sent, next to the field.
    fireEvent.change(input, { target: { value: '2020-01-01T09:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    const error = await within(dialog).findByText(/^The publishing time must be in the future/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(error.id);
    expect(bodies).toHaveLength(0);

    const when = aheadBy(3);
    fireEvent.change(input, { target: { value: when.local } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ publishAt: when.iso, expectedUpdatedAt: draft.updatedAt });
    expect(bodies[0]!.publishAt).toMatch(/T10:30:00-0[78]:00$/);
    expect(await screen.findByText('Post scheduled')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const item = await waitFor(() => {
      const li = itemOf('A draft about chatbots');
      expect(within(li).getByText('scheduled')).toBeTruthy();
      return li;
    });
    expect(within(item).getByText('Scheduled for')).toBeTruthy();
    expect(within(item).getByText(formatInBusinessZone(when.iso))).toBeTruthy();
    expect(item.textContent).toContain('(Pacific Time (Los Angeles))');
    expect(within(item).getByRole('button', { name: /^Publish now/ })).toBeTruthy();
    expect(within(item).getByRole('button', { name: /^Unschedule/ })).toBeTruthy();
    expect(within(item).queryByRole('button', { name: /^Publish “/ })).toBeNull();
  });

  it("shows the server's refusal next to the field and keeps the dialog open", async () => {
    serveSession();
    const draft = makePost({ id: 'd1', title: 'A draft about chatbots' });
    servePostList([draft]);
    server.use(
      http.post('/api/admin/posts/:id/schedule', () =>
        envelope(400, 'validation_failed', 'Validation failed: publishAt must be at most a year ahead (got Mon, Jan 1, 2035, 9:00 AM PST, latest …)'),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    await user.click(within(await waitFor(() => itemOf('A draft about chatbots'))).getByRole('button', { name: /^Schedule/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule post' });
    fireEvent.change(within(dialog).getByLabelText(pickerLabel), { target: { value: aheadBy(2).local } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText(/^The publishing time must be at most a year ahead/)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Schedule post' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Unschedule and Publish now on a scheduled post', async () => {
    serveSession();
    const at = aheadBy(5).iso;
    const posts: Post[] = [
      makePost({ id: 's1', title: 'Scheduled one', status: 'scheduled', publishAt: at }),
      makePost({ id: 's2', title: 'Scheduled two', status: 'scheduled', publishAt: at }),
    ];
    servePostList(posts);
    const calls: string[] = [];
    server.use(
      http.post('/api/admin/posts/:id/unschedule', ({ params }) => {
        calls.push(`unschedule ${String(params.id)}`);
        const i = posts.findIndex((p) => p.id === params.id);
        posts[i] = { ...posts[i]!, status: 'draft', publishAt: null };
        return HttpResponse.json(posts[i]);
      }),
      http.post('/api/admin/posts/:id/publish', ({ params }) => {
        calls.push(`publish ${String(params.id)}`);
        const i = posts.findIndex((p) => p.id === params.id);
        posts[i] = { ...posts[i]!, status: 'published', publishAt: null, publishedAt: '2024-03-03T00:00:00.000Z' };
        return HttpResponse.json(posts[i]);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts?status=scheduled');
    await screen.findByText('Scheduled one');
    await user.click(within(itemOf('Scheduled one')).getByRole('button', { name: 'Unschedule “Scheduled one”' }));
    expect(await screen.findByText('Post unscheduled')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Scheduled one')).toBeNull());

    await user.click(within(itemOf('Scheduled two')).getByRole('button', { name: 'Publish now “Scheduled two”' }));
    expect(await screen.findByText('Post published')).toBeTruthy();
    expect(calls).toEqual(['unschedule s1', 'publish s2']);
    expect(await screen.findByText('No posts match these filters')).toBeTruthy();
  });
});

describe('Scheduling from the form', { timeout: 20_000 }, () => {
  it('saves unsaved edits first, then schedules with the saved version; the header shows the time and the history reloads', async () => {
    serveSession();
    const post = makePost();
    server.use(http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)));
    const historyRequests = serveRevisions(post.id);
    const order: string[] = [];
    const saved = { ...post, title: 'A better title for the post', updatedAt: '2024-03-02T08:00:00.000Z' };
    let scheduleBody: AdminPostSchedule | null = null;
    server.use(
      http.put(`/api/admin/posts/${post.id}`, async ({ request }) => {
        const body = (await request.json()) as AdminPostUpdate;
        order.push(`save ${body.title} @${body.expectedUpdatedAt}`);
        return HttpResponse.json(saved);
      }),
      http.post(`/api/admin/posts/${post.id}/schedule`, async ({ request }) => {
        scheduleBody = (await request.json()) as AdminPostSchedule;
        order.push('schedule');
        return HttpResponse.json({ ...saved, status: 'scheduled', publishAt: new Date(scheduleBody.publishAt).toISOString(), updatedAt: '2024-03-02T08:01:00.000Z' });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    const title = (await screen.findByLabelText(/^Title/)) as HTMLInputElement;
    await waitFor(() => expect(historyRequests).toHaveLength(1));
    await user.clear(title);
    await user.type(title, 'A better title for the post');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule post' });
    expect(within(dialog).getByText('Your unsaved changes are saved first, then the post is scheduled with them.')).toBeTruthy();
    const when = aheadBy(10, '08:15');
    fireEvent.change(within(dialog).getByLabelText(pickerLabel), { target: { value: when.local } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(await screen.findByText('Post scheduled')).toBeTruthy();
    expect(order).toEqual([`save A better title for the post @${post.updatedAt}`, 'schedule']);
    expect(scheduleBody).toEqual({ publishAt: when.iso, expectedUpdatedAt: saved.updatedAt });
    expect(screen.getByText('scheduled')).toBeTruthy();
    expect(screen.getByText(formatInBusinessZone(when.iso))).toBeTruthy();
    expect(screen.getByText('No unsaved changes.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unschedule' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish now' })).toBeTruthy();
    // Saved, then scheduled: the history was asked again for the new version.
    await waitFor(() => expect(historyRequests.length).toBeGreaterThanOrEqual(2));
  });

  it('does not open the picker while the form has errors', async () => {
    serveSession();
    const post = makePost();
    server.use(http.get(`/api/admin/posts/${post.id}`, () => HttpResponse.json(post)));
    serveRevisions(post.id);
    const user = userEvent.setup({ delay: null });
    renderAdmin(`/admin/posts/${post.id}/edit`);
    const title = await screen.findByLabelText(/^Title/);
    await user.clear(title);
    await user.type(title, 'Hey');
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Title must be at least 5 characters long', { selector: 'p.text-danger' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Recently deleted', { timeout: 20_000 }, () => {
  it("lists posts deleted in the last 30 days; Restore brings one back as a draft: 'Restored as a draft'", async () => {
    serveSession();
    const posts: Post[] = [makePost({ id: 'p1', title: 'A published case study', status: 'published' })];
    servePostList(posts);
    let deleted: DeletedPost[] = [
      { id: 'gone-1', title: 'The post deleted by mistake', slug: 'the-post-deleted-by-mistake', status: 'published', deletedAt: '2024-03-05T18:00:00.000Z', purgeAt: '2024-04-04T18:00:00.000Z' },
    ];
    let undeleted = '';
    server.use(
      http.get('/api/admin/posts/deleted', () => HttpResponse.json({ posts: deleted })),
      http.post('/api/admin/posts/:id/undelete', ({ params }) => {
        undeleted = String(params.id);
        const back = makePost({ id: 'gone-1', title: 'The post deleted by mistake', status: 'draft' });
        posts.push(back);
        deleted = [];
        return HttpResponse.json(back, { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    await screen.findByText('A published case study');
    const section = screen.getByRole('region', { name: 'Recently deleted' });
    const toggle = within(section).getByRole('button', { name: 'Show deleted posts' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    const list = await within(section).findByRole('list', { name: 'Deleted posts' });
    expect(within(list).getByText('The post deleted by mistake')).toBeTruthy();
    expect(within(list).getByText('Kept until')).toBeTruthy();
    expect(within(list).getByText('Apr 4, 2024')).toBeTruthy();
    expect(within(list).getByText('Deleted')).toBeTruthy();

    await user.click(within(list).getByRole('button', { name: 'Restore “The post deleted by mistake”' }));
    expect(await screen.findByText(RESTORED_AS_DRAFT)).toBeTruthy();
    expect(undeleted).toBe('gone-1');
    expect(await within(section).findByText('No posts were deleted in the last 30 days.')).toBeTruthy();
    const back = await screen.findByRole('link', { name: 'The post deleted by mistake' });
    expect(within(back.closest('li')!).getByText('draft')).toBeTruthy();
  });

  it('says so when the deleted posts cannot be loaded, and tries again', async () => {
    serveSession();
    servePostList([]);
    let fail = true;
    server.use(http.get('/api/admin/posts/deleted', () => (fail ? envelope(500, 'internal', 'boom') : HttpResponse.json({ posts: [] }))));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts');
    const section = await screen.findByRole('region', { name: 'Recently deleted' });
    await user.click(within(section).getByRole('button', { name: 'Show deleted posts' }));
    expect(await within(section).findByText('Could not load the deleted posts')).toBeTruthy();
    fail = false;
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('No posts were deleted in the last 30 days.')).toBeTruthy();
  });
});

describe('Webhook documentation', { timeout: 20_000 }, () => {
  it('documents status "scheduled" with publishAt and an example that the server would accept', async () => {
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    expect(within(docs).getAllByText('publishAt').length).toBeGreaterThan(0);
    expect(docs.textContent).toContain('"draft" (default), "published" or "scheduled"');
    expect(within(docs).getByRole('heading', { name: 'Scheduling a post' })).toBeTruthy();
    // The example body is the API description's (GET /api/openapi.json): it arrives after the panel.
    const example = await within(docs).findByText(/"status": "scheduled"/);
    const publishAt = /"publishAt": "([^"]+)"/.exec(example.textContent ?? '')![1]!;
    expect(publishAt).toMatch(/^\d{4}-\d{2}-\d{2}T09:00:00-0[78]:00$/);
    expect(new Date(publishAt).getTime()).toBeGreaterThan(Date.now());
  });
});
