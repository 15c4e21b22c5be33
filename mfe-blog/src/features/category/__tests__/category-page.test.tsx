import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, servePosts, summary } from '../../../lib/__tests__/blog-test-kit';
import { CategoryPage } from '../components/category-page';

const renderCategory = (slug: string) => renderPage(<CategoryPage />, { url: `/blog/category/${slug}`, path: '/blog/category/:category' });

describe('CategoryPage', () => {
  beforeEach(() => localStorage.clear());

  it('names the category in Title Case and lists its posts, as the server filters them', async () => {
    const requests = servePosts([summary(1, 'AI Automation', 'ai-automation'), summary(2, 'Industry Insights', 'industry-insights')]);
    await renderCategory('industry-insights');
    expect(screen.getByRole('heading', { level: 1, name: 'Industry Insights' })).toBeTruthy();
    expect(await screen.findByText('Discover 1 article about Industry Insights')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByText('Post number 2 about Industry Insights')).toBeTruthy();
    expect(requests.map((u) => u.searchParams.get('category'))).toEqual(['industry-insights']);
  });

  it("counts every matching post, not only the first page, and loads the rest with 'Load more'", async () => {
    servePosts(
      Array.from({ length: 14 }, (_, i) => summary(i + 1, 'Case Studies', 'case-studies')),
      { pageSize: 12 },
    );
    await renderCategory('case-studies');
    expect(await screen.findByText('Discover 14 articles about Case Studies')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(12);
    await userEvent.click(screen.getByRole('button', { name: 'Load more articles (2 more)' }));
    expect(await screen.findByText('Post number 14 about Case Studies')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(14);
  });

  it('says so when a category has no published posts, as a noindex page', async () => {
    // The API lists published posts only: a category of drafts answers an empty first page.
    servePosts([summary(1, 'AI Automation', 'ai-automation')]);
    await renderCategory('how-to-guides');
    // The slug maps back to the offered category's real name, not a Title Case guess.
    expect(screen.getByRole('heading', { level: 1, name: 'How-To Guides' })).toBeTruthy();
    expect(await screen.findByText('No articles found in How-To Guides')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'No posts in this category' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse all articles' }).getAttribute('href')).toBe('/blog');
    expect(screen.queryByText(/Discover \d+/)).toBeNull();
    expect(document.title).toBe('No posts in this category | Tri-Valley AI Automation');
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });

  it('renders the empty state at once, asking nothing, when the server answered the category 404', async () => {
    const requests = servePosts([summary(1, 'Tests', 'tests')]);
    await renderPage(<CategoryPage notFound />, { url: '/blog/category/no-such-thing', path: '/blog/category/:category' });
    expect(screen.getByRole('heading', { level: 1, name: 'No Such Thing' })).toBeTruthy();
    expect(screen.getByText('No articles found in No Such Thing')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'No posts in this category' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Blog' }).getAttribute('href')).toBe('/blog');
    expect(requests).toEqual([]);
  });

  it('takes the name a stored category really has, and Title Case only for a slug no category has', async () => {
    servePosts([summary(1, 'AI & Robotics', 'ai-robotics')]);
    await renderCategory('ai-robotics');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI & Robotics' })).toBeTruthy();
  });

  it('falls back to Title Case for an unknown slug', async () => {
    servePosts([]);
    await renderCategory('garden-tools');
    expect(screen.getByRole('heading', { level: 1, name: 'Garden Tools' })).toBeTruthy();
    expect(await screen.findByText('No articles found in Garden Tools')).toBeTruthy();
  });
});
