// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: DOMPurify under happy-dom drops headings and keeps <script>, so sanitized HTML is only tested in jsdom.
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE_ALT } from '@site/contracts/posts';
import { PostArticle, sanitizeArticleHtml, type ArticlePost } from '../post-article';

const post: ArticlePost = {
  title: 'Five automations for busy salons',
  excerpt: 'Small automations that give a salon team back hours every week.',
  content: '<h2>Start small</h2><p>Reminders first.</p><script>alert(1)</script><img src=x onerror="alert(1)">',
  keywords: ['salon', 'automation'],
  author: 'Tri-Valley AI Team',
  publishedAt: '2024-01-15T09:00:00.000Z',
  featuredImage: 'https://images.example/salon.jpg',
  category: 'How-To Guides',
  categorySlug: 'how-to-guides',
  readTime: 2,
  views: 1250,
};

describe('sanitizeArticleHtml (second layer)', () => {
  it('removes scripts, handlers, javascript: links, SVG and styles; links get rel', () => {
    const out = sanitizeArticleHtml(
      '<h2>Hi</h2><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>' +
        '<svg onload=alert(1)></svg><p style="color:red">p</p><a href="https://ok.example" target="_top">ok</a>',
    );
    expect(out).not.toMatch(/script|onerror|javascript:|svg|style=|_top/i);
    expect(out).toContain('<h2>Hi</h2>');
    expect(out).toContain('rel="noopener noreferrer"');
  });
});

describe('PostArticle', () => {
  it('renders the header, sanitized content, tags and views; a broken image falls back to the placeholder', () => {
    const { container } = render(
      <MemoryRouter>
        <PostArticle post={post} views={1251} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: post.title })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Start small' })).toBeTruthy();
    expect(screen.getByText('By Tri-Valley AI Team')).toBeTruthy();
    expect(screen.getByText('January 15, 2024')).toBeTruthy();
    expect(screen.getByText('1,251 views')).toBeTruthy();
    expect(screen.getByText('2 min read')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How-To Guides' }).getAttribute('href')).toBe('/blog/category/how-to-guides');
    expect(screen.getByRole('list', { name: 'Tags' }).textContent).toBe('#salon#automation');
    expect(container.querySelector('script')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    const image = screen.getByRole('img', { name: post.title });
    fireEvent.error(image);
    expect(screen.getByRole('img', { name: PLACEHOLDER_IMAGE_ALT }).getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });
});
