import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostSummary } from '@site/contracts/posts';
import { POSTS_CACHE_KEY } from '../../../lib/posts-cache';
import { BlogPage } from '../components/blog-page';

const summary = (n: number, category: string, categorySlug: string): PostSummary => ({
  id: `id-${n}`,
  title: `Post number ${n} about ${category}`,
  slug: `post-${n}`,
  excerpt: `Excerpt ${n} `.repeat(30),
  keywords: [],
  author: 'Author',
  publishedAt: '2024-01-15T09:00:00.000Z',
  createdAt: '2024-01-15T09:00:00.000Z',
  updatedAt: '2024-01-15T09:00:00.000Z',
  status: 'published',
  featuredImage: '/mfe/blog/placeholder.svg',
  category,
  categorySlug,
  readTime: 3,
  views: 1250,
  metaDescription: 'm'.repeat(60),
  ogImage: '/mfe/blog/placeholder.svg',
  source: 'local',
});

function answer(posts: PostSummary[]) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ posts, total: posts.length }), { status: 200, headers: { 'content-type': 'application/json' } })));
}

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/blog" element={<BlogPage />} />
      </Routes>
    </MemoryRouter>,
  );

describe('BlogPage', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it("says 'No posts yet' when nothing is published", async () => {
    answer([]);
    renderAt('/blog');
    expect(await screen.findByRole('heading', { name: 'No posts yet' })).toBeTruthy();
    expect(screen.getByText('Showing 0 of 0 articles')).toBeTruthy();
  });

  it('filters by search and category from the URL, cuts excerpts to 150 characters', async () => {
    answer([summary(1, 'AI Automation', 'ai-automation'), summary(2, 'Case Studies', 'case-studies')]);
    renderAt('/blog?category=case-studies');
    const list = await screen.findByRole('list', { name: 'Articles' });
    expect(within(list).getAllByRole('article')).toHaveLength(1);
    expect(screen.getByText('Showing 1 of 2 articles')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Case Studies' }).getAttribute('aria-pressed')).toBe('true');
    const excerpt = within(list).getByText(/^Excerpt 2/);
    expect(excerpt.textContent!.length).toBeLessThanOrEqual(151);

    await userEvent.click(screen.getByRole('button', { name: 'Case Studies' }));
    expect(screen.getByText('Showing 2 of 2 articles')).toBeTruthy();
    await userEvent.type(screen.getByPlaceholderText('Search articles...'), 'nothing-matches');
    expect(screen.getByRole('heading', { name: 'No posts found' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    expect(screen.getByText('Showing 2 of 2 articles')).toBeTruthy();
  });

  it('shows the cached list at once and ignores unparsable storage', async () => {
    localStorage.setItem(POSTS_CACHE_KEY, JSON.stringify({ savedAt: Date.now(), posts: [summary(7, 'AI Automation', 'ai-automation')] }));
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})));
    const { unmount } = renderAt('/blog');
    expect(screen.getByText('Post number 7 about AI Automation')).toBeTruthy();
    unmount();
    localStorage.setItem(POSTS_CACHE_KEY, '{broken');
    renderAt('/blog');
    expect(screen.getByRole('status')).toBeTruthy();
  });

  it('shows an API error with a retry', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":{"code":"internal_error","message":"Server down"}}', { status: 500 })));
    renderAt('/blog');
    expect((await screen.findByRole('alert')).textContent).toContain('Server down');
    answer([summary(1, 'AI Automation', 'ai-automation')]);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Post number 1 about AI Automation')).toBeTruthy();
  });
});
