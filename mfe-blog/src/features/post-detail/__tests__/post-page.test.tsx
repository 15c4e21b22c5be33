// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: DOMPurify under happy-dom drops headings and keeps <script>, so sanitized HTML is only tested in jsdom.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Post } from '@site/contracts/posts';
import { server } from '../../../../../vitest.msw';
import { renderPage, summary } from '../../../lib/__tests__/blog-test-kit';
import { PostPage } from '../components/post-page';

const post: Post = {
  ...summary(3, 'Case Studies', 'case-studies'),
  slug: 'danville-restaurant',
  title: 'How a Danville restaurant stopped missing orders',
  content: '<h2>The challenge</h2><p>Friday nights meant missed calls.</p>',
  keywords: ['restaurant automation'],
  views: 890,
};

const renderPost = (slug: string) => renderPage(<PostPage />, { url: `/blog/${slug}`, path: '/blog/:slug' });

describe('PostPage', () => {
  beforeEach(() => localStorage.clear());

  it('shows the article with its tags, and counts one view', async () => {
    let views = post.views;
    let counted = 0;
    server.use(
      http.get('/api/posts/danville-restaurant', () => HttpResponse.json({ ...post, views })),
      http.post('/api/posts/danville-restaurant/views', () => {
        counted++;
        return HttpResponse.json({ views: ++views });
      }),
    );
    await renderPost('danville-restaurant');
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'The challenge' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Tags' }).textContent).toContain('#restaurant automation');
    expect(await screen.findByText('891 views')).toBeTruthy();
    expect(counted).toBe(1);
  });

  it('gives the featured image the alt text the owner wrote on the Media screen, else the title', async () => {
    const alt = 'The restaurant kitchen printer with an order ticket';
    const image = '/media/0123456789abcdef01234567-1600x900.jpg';
    server.use(
      http.get('/api/posts/danville-restaurant', () => HttpResponse.json({ ...post, featuredImage: image, featuredImageAlt: alt })),
      http.get('/api/posts/no-alt', () => HttpResponse.json({ ...post, slug: 'no-alt', featuredImage: image })),
      http.post('/api/posts/:slug/views', () => HttpResponse.json({ views: post.views + 1 })),
    );
    const first = await renderPost('danville-restaurant');
    await screen.findByRole('heading', { level: 1, name: post.title });
    expect(screen.getByRole('img', { name: alt }).getAttribute('src')).toMatch(/^\/media\/0123456789abcdef01234567-/);
    first.unmount();
    await renderPost('no-alt');
    await screen.findByRole('heading', { level: 1, name: post.title });
    expect(screen.getByRole('img', { name: post.title })).toBeTruthy();
  });

  it("says 'Post Not Found' for an unknown slug, without retrying", async () => {
    let asked = 0;
    server.use(
      http.get('/api/posts/nope', () => {
        asked++;
        return HttpResponse.json({ error: { code: 'not_found', message: 'Post not found' } }, { status: 404 });
      }),
    );
    await renderPost('nope');
    expect(await screen.findByRole('heading', { name: 'Post Not Found' })).toBeTruthy();
    expect(screen.getByText("The blog post you're looking for doesn't exist.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Blog' }).getAttribute('href')).toBe('/blog');
    expect(asked).toBe(1);
  });

  it('shows a failure with Try again, which loads the article once the server is back', async () => {
    let down = true;
    server.use(
      http.get('/api/posts/danville-restaurant', () =>
        down ? HttpResponse.error() : HttpResponse.json(post),
      ),
      http.post('/api/posts/danville-restaurant/views', () => HttpResponse.json({ views: post.views + 1 })),
    );
    await renderPost('danville-restaurant');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('We could not load this article');
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeTruthy();
  });
});
