import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makePost, renderAdmin, servePostList, serveSession } from './admin-test-kit';

/* The posts list pages by keyset (the API's nextCursor / prevCursor): Newer / Older, the count, the cursor in the URL. */

const posts = Array.from({ length: 60 }, (_, i) => makePost({ id: `post-${i + 1}`, slug: `post-${i + 1}`, title: `Post number ${i + 1}` }));

describe('Posts list pages (keyset)', { timeout: 20_000 }, () => {
  it('shows the count and pages Older then Newer by keyboard, the cursor kept in the URL', async () => {
    serveSession();
    const requests = servePostList(posts);
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin('/admin/posts');
    expect(await screen.findByText('60 posts · 50 on this page')).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Pages of posts' });
    const newer = within(pager).getByRole('button', { name: /Newer/ });
    const older = within(pager).getByRole('button', { name: /Older/ });
    expect((newer as HTMLButtonElement).disabled).toBe(true);
    older.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('60 posts · 10 on this page')).toBeTruthy();
    expect(screen.getByText('Post number 51')).toBeTruthy();
    expect(screen.queryByText('Post number 1')).toBeNull();
    expect(location()).toContain('cursor=50');
    expect(requests.at(-1)?.searchParams.get('cursor')).toBe('50');
    expect((within(pager).getByRole('button', { name: /Older/ }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(pager).getByRole('button', { name: /Newer/ }));
    expect(await screen.findByText('60 posts · 50 on this page')).toBeTruthy();
    expect(screen.getByText('Post number 1')).toBeTruthy();
  });

  it('a search past the count the server makes says "1,000+" matching posts', async () => {
    serveSession();
    servePostList(Array.from({ length: 1_005 }, (_, i) => makePost({ id: `pangolin-${i}`, slug: `pangolin-${i}`, title: `Pangolin notes ${i}` })));
    renderAdmin('/admin/posts?q=pangolin');
    expect(await screen.findByText('The best 50 of 1,000+ matching posts. Add words to narrow the search.')).toBeTruthy();
  });

  it('has no pager when everything fits one page', async () => {
    serveSession();
    servePostList(posts.slice(0, 3));
    renderAdmin('/admin/posts');
    expect(await screen.findByText('3 posts · 3 on this page')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages of posts' })).toBeNull();
  });

  it('goes back to the newest page when the page it was on is empty now (its posts gone)', async () => {
    serveSession();
    servePostList(posts.slice(0, 5));
    const { location } = renderAdmin('/admin/posts?cursor=50');
    expect(await screen.findByText('5 posts · 5 on this page')).toBeTruthy();
    await waitFor(() => expect(location()).not.toContain('cursor'));
    expect(screen.getByText('Post number 1')).toBeTruthy();
  });
});
