import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_IMAGE } from '@site/contracts/posts';
import { cardImage } from '../post-card';

describe('cardImage', () => {
  it("keeps a post's own image", () => {
    expect(cardImage({ featuredImage: 'https://img.example/a.jpg', category: 'Case Studies' })).toBe('https://img.example/a.jpg');
  });

  it("shows the category's illustration for a post without one, so cards of different categories differ", () => {
    const a = cardImage({ featuredImage: PLACEHOLDER_IMAGE, category: 'Case Studies' });
    const b = cardImage({ featuredImage: PLACEHOLDER_IMAGE, category: 'AI Automation' });
    expect(a).toBe('/mfe/blog/categories/case-studies.svg');
    expect(b).toBe('/mfe/blog/categories/ai-automation.svg');
  });

  it('keeps the generic placeholder for a category without an illustration', () => {
    expect(cardImage({ featuredImage: '', category: 'Gardening' })).toBe(PLACEHOLDER_IMAGE);
  });
});
