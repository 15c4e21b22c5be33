// A subpath module (`@site/ui/post-image`), like post-article: the blog's cards and the article header share it
// without pulling the article's sanitizer into the list page.
import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE_ALT } from '@site/contracts/posts-rules';
import { cn } from './cn';

/** A post image that falls back to the placeholder (alt 'Image not available') when it fails to load. */
export function PostImage({ src, alt, className, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const showPlaceholder = failed === src || !src;
  const image = useRef<HTMLImageElement>(null);
  // A server-rendered image may have failed before this code was there to hear its error event.
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0 && !showPlaceholder) setFailed(src);
  }, [src, showPlaceholder]);
  return (
    <img
      {...rest}
      ref={image}
      src={showPlaceholder ? PLACEHOLDER_IMAGE : src}
      alt={showPlaceholder ? PLACEHOLDER_IMAGE_ALT : alt}
      className={cn('bg-primary-soft object-cover', className)}
      onError={() => {
        if (failed !== src) setFailed(src);
      }}
    />
  );
}
