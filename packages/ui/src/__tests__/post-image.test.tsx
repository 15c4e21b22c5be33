// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: querySelectorAll('source') finds none of a rendered <picture>'s sources under happy-dom.
import { render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PostImage } from '../post-image';

const HASH = '0123456789abcdef01234567';

describe('PostImage', () => {
  it('renders a media-library image as <picture> with AVIF and WebP srcsets, sizes and its own width and height', () => {
    const html = renderToString(<PostImage src={`/media/${HASH}-1600x1200.jpg`} alt="Field" width={1200} height={630} sizes="100vw" fetchPriority="high" />);
    const { container } = render(<div dangerouslySetInnerHTML={{ __html: html }} />);
    const sources = [...container.querySelectorAll('picture > source')];
    expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]!.getAttribute('srcset')).toBe(`/media/${HASH}-480.avif 480w, /media/${HASH}-960.avif 960w, /media/${HASH}-1600.avif 1600w`);
    expect(sources[0]!.getAttribute('sizes')).toBe('100vw');
    const img = container.querySelector('picture > img')!;
    expect(img.getAttribute('src')).toBe(`/media/${HASH}-1600.jpg`);
    expect(img.getAttribute('srcset')).toContain(`/media/${HASH}-480.jpg 480w`);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1600', '1200']);
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });

  it('never lists a width wider than the image, and uses WebP as the fallback of an AVIF upload', () => {
    const { container } = render(<PostImage src={`/media/${HASH}-640x480.avif`} alt="" />);
    expect([...container.querySelectorAll('source')].map((s) => s.getAttribute('type'))).toEqual(['image/avif']);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('srcset')).toBe(`/media/${HASH}-480.webp 480w, /media/${HASH}-640.webp 640w`);
  });

  it('offers a GIF (animated or not) as WebP and GIF only: no still AVIF in front of an animation', () => {
    const { container } = render(<PostImage src={`/media/${HASH}-480x270.gif`} alt="" />);
    const sources = [...container.querySelectorAll('source')];
    expect(sources.map((s) => s.getAttribute('type'))).toEqual(['image/webp']);
    expect(sources[0]!.getAttribute('srcset')).toBe(`/media/${HASH}-480.webp 480w`);
    expect(container.querySelector('img')!.getAttribute('src')).toBe(`/media/${HASH}-480.gif`);
  });

  it('leaves any other image a plain <img>', () => {
    const { container } = render(<PostImage src="https://images.example/a.jpg" alt="" width={1200} height={630} sizes="100vw" />);
    expect(container.querySelector('picture')).toBeNull();
    expect(container.querySelector('img')!.getAttribute('srcset')).toBeNull();
  });
});
