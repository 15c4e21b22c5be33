// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: DOMPurify under happy-dom drops headings and keeps <script>, so sanitized HTML is only tested in jsdom.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLOG_CACHE_KEY } from '../../../lib/query-client';
import { renderPage, servePosts, summary } from '../../../lib/__tests__/blog-test-kit';
import { BlogPage } from '../components/blog-page';

const renderBlog = (url = '/blog', storage?: Storage | null) => renderPage(<BlogPage />, { url, path: '/blog', storage });
const twoPosts = () => [summary(1, 'AI Automation', 'ai-automation'), summary(2, 'Case Studies', 'case-studies')];

describe('BlogPage', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it("says 'No posts yet' when nothing is published", async () => {
    servePosts([]);
    await renderBlog();
    expect(await screen.findByRole('heading', { name: 'No posts yet' })).toBeTruthy();
    expect(screen.getByText('Showing 0 of 0 articles')).toBeTruthy();
  });

  it('asks the server for the category in the URL, toggles it, cuts excerpts to 150 characters', async () => {
    const requests = servePosts(twoPosts());
    await renderBlog('/blog?category=case-studies');
    const list = await screen.findByRole('list', { name: 'Articles' });
    expect(within(list).getAllByRole('article')).toHaveLength(1);
    expect(await screen.findByText('Showing 1 of 2 articles')).toBeTruthy();
    expect(requests.some((u) => u.searchParams.get('category') === 'case-studies')).toBe(true);
    expect(screen.getByRole('button', { name: 'Case Studies' }).getAttribute('aria-pressed')).toBe('true');
    const excerpt = within(list).getByText(/^Excerpt 2/);
    expect(excerpt.textContent!.length).toBeLessThanOrEqual(151);

    await userEvent.click(screen.getByRole('button', { name: 'Case Studies' }));
    expect(await screen.findByText('Showing 2 of 2 articles')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Case Studies' }).getAttribute('aria-pressed')).toBe('false');
  });

  it("shows a post's image with the alt text the owner wrote on the Media screen; an image without one is decoration", async () => {
    const alt = 'A phone showing an order chat with a pizza place';
    servePosts([
      { ...summary(1, 'AI Automation', 'ai-automation'), featuredImage: '/media/0123456789abcdef01234567-1600x900.jpg', featuredImageAlt: alt },
      { ...summary(2, 'Case Studies', 'case-studies'), featuredImage: '/media/76543210fedcba9876543210-1600x900.jpg' },
    ]);
    await renderBlog();
    const list = await screen.findByRole('list', { name: 'Articles' });
    const [first, second] = within(list).getAllByRole('article');
    expect(within(first!).getByRole('img', { name: alt }).getAttribute('src')).toMatch(/^\/media\/0123456789abcdef01234567-/);
    expect(within(second!).queryByRole('img')).toBeNull();
    expect(second!.querySelector('img')?.getAttribute('alt')).toBe('');
  });

  it('searches on the server once typing pauses, shows "No posts found", and clears', async () => {
    const requests = servePosts(twoPosts());
    await renderBlog();
    expect(await screen.findByText('Showing 2 of 2 articles')).toBeTruthy();
    await userEvent.type(screen.getByPlaceholderText('Search articles...'), 'nothing-matches');
    expect(await screen.findByRole('heading', { name: 'No posts found' })).toBeTruthy();
    expect(screen.getByText('Showing 0 of 2 articles')).toBeTruthy();
    // One search for the whole word, not one per keystroke.
    expect(requests.filter((u) => u.searchParams.has('q')).map((u) => u.searchParams.get('q'))).toEqual(['nothing-matches']);

    await userEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    expect(await screen.findByText('Showing 2 of 2 articles')).toBeTruthy();
    expect((screen.getByPlaceholderText('Search articles...') as HTMLInputElement).value).toBe('');

    await userEvent.type(screen.getByPlaceholderText('Search articles...'), 'case');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(screen.getByText('Post number 2 about Case Studies')).toBeTruthy();
    expect(screen.getByText('Showing 1 of 2 articles')).toBeTruthy();
  });

  it('loads further pages with "Load more" while the count says how many are shown', async () => {
    const posts = Array.from({ length: 30 }, (_, i) => summary(i + 1, 'AI Automation', 'ai-automation'));
    servePosts(posts, { pageSize: 12 });
    await renderBlog();
    expect(await screen.findByText('Showing 12 of 30 articles')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(12);
    await userEvent.click(screen.getByRole('button', { name: 'Load more articles (18 more)' }));
    expect(await screen.findByText('Showing 24 of 30 articles')).toBeTruthy();
    // Reading goes on at the first new card.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Post number 13 about AI Automation' })));
    await userEvent.click(screen.getByRole('button', { name: 'Load more articles (6 more)' }));
    expect(await screen.findByText('Showing 30 of 30 articles')).toBeTruthy();
    expect(screen.getByText('Post number 30 about AI Automation')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
    // The button is gone, the focus is not lost with it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Post number 25 about AI Automation' })));
  });

  it('"Load more" says "988+ more" when the server stopped counting the search\'s matches at 1,000', async () => {
    const posts = Array.from({ length: 1_005 }, (_, i) => ({ ...summary(i + 1, 'AI Automation', 'ai-automation'), title: `Pangolin notes ${i + 1}` }));
    servePosts(posts, { pageSize: 12 });
    await renderBlog('/blog?q=pangolin');
    expect(await screen.findByRole('button', { name: 'Load more articles (988+ more)' })).toBeTruthy();
    // Every published post is counted exactly: "of Y" is the whole blog's.
    expect(screen.getByText('Showing 12 of 1005 articles')).toBeTruthy();
  });

  it('a returning visitor sees the list from the last visit at once, while the server is slow', async () => {
    servePosts([summary(7, 'AI Automation', 'ai-automation')]);
    const first = await renderBlog();
    expect(await screen.findByText('Post number 7 about AI Automation')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(BLOG_CACHE_KEY)).toContain('Post number 7'));
    first.unmount();

    servePosts([], { respond: () => delay('infinite').then(() => HttpResponse.json({})) });
    await renderBlog();
    expect(screen.getByText('Post number 7 about AI Automation')).toBeTruthy();
    expect(screen.getByText('Showing 1 of 1 articles')).toBeTruthy();
  });

  it('unparsable storage is logged and ignored: the list comes from the server', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // TanStack's development build reports it too.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem(BLOG_CACHE_KEY, '{broken');
    servePosts(twoPosts());
    await renderBlog();
    expect(screen.getByRole('status')).toBeTruthy();
    expect(await screen.findByText('Showing 2 of 2 articles')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Could not read the cached blog posts', expect.any(SyntaxError));
  });

  it('storage that refuses to store is only logged; the page works', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const full: Storage = {
      ...localStorage,
      length: 0,
      key: () => null,
      clear: () => undefined,
      getItem: () => null,
      removeItem: () => undefined,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    servePosts(twoPosts());
    await renderBlog('/blog', full);
    expect(await screen.findByText('Showing 2 of 2 articles')).toBeTruthy();
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Could not store the cached blog posts', expect.any(DOMException)));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an API error with a retry', async () => {
    let down = true;
    servePosts([summary(1, 'AI Automation', 'ai-automation')], {
      respond: () =>
        down ? Promise.resolve(HttpResponse.json({ error: { code: 'internal_error', message: 'Server down' } }, { status: 500 })) : undefined,
    });
    await renderBlog();
    // One quiet retry first (a network blip should not bother the reader), then the error.
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('We could not load the articles');
    expect(alert.textContent).toContain('Server down');
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Post number 1 about AI Automation')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
