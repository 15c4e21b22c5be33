import { useState, type ImgHTMLAttributes } from 'react';
import { PLACEHOLDER_IMAGE, PLACEHOLDER_IMAGE_ALT } from '@site/contracts/posts';
import { cn } from '@site/ui';

/** A post image that falls back to the placeholder (alt 'Image not available') when it fails to load. */
export function PostImage({ src, alt, className, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const showPlaceholder = failed || !src;
  return (
    <img
      {...rest}
      src={showPlaceholder ? PLACEHOLDER_IMAGE : src}
      alt={showPlaceholder ? PLACEHOLDER_IMAGE_ALT : alt}
      className={cn('bg-primary-soft object-cover', className)}
      onError={() => {
        if (!failed) setFailed(true);
      }}
    />
  );
}
