// A subpath module (`@site/ui/post-image`), like post-article: the blog's cards and the article header share it
// without pulling the article's sanitizer into the list page.
import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';
import { mediaSources } from '@site/contracts/media-rules';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE_ALT } from '@site/contracts/posts-rules';
import { cn } from './cn';

/**
 * A post image that falls back to the placeholder (alt 'Image not available') when it fails to load. An image of the
 * media library (`/media/<hash>-<w>x<h>.<ext>`) becomes a `<picture>`: AVIF and WebP sources of every stored width,
 * `sizes` from the caller, and its own width and height, so the browser picks the smallest file that fills the slot.
 */
export function PostImage({ src, alt, className, sizes, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const showPlaceholder = failed === src || !src;
  const image = useRef<HTMLImageElement>(null);
  // A server-rendered image may have failed before this code was there to hear its error event.
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0 && !showPlaceholder) setFailed(src);
  }, [src, showPlaceholder]);
  const media = showPlaceholder ? null : mediaSources(src);
  const img = (
    <img
      {...rest}
      ref={image}
      {...(media ? { width: media.width, height: media.height, srcSet: media.srcSet, sizes } : {})}
      src={showPlaceholder ? PLACEHOLDER_IMAGE : (media?.src ?? src)}
      alt={showPlaceholder ? PLACEHOLDER_IMAGE_ALT : alt}
      className={cn('bg-primary-soft object-cover', className)}
      onError={() => {
        if (failed !== src) setFailed(src);
      }}
    />
  );
  if (!media) return img;
  return (
    // display: contents, so the <img> keeps its place in the layout as if the <picture> were not there.
    <picture className="contents">
      {media.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}
