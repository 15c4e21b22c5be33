import type { MediaItem } from '@site/contracts/media';

const box = 'flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 p-4 text-center text-sm';

/**
 * The card's picture: the thumbnail once the sizes are made; until then words (not only a spinner) saying they are
 * being made, or why they could not be. One live region for both, so a card that fails while watched says so.
 */
export function MediaThumb({ media }: { media: MediaItem }) {
  if (media.state === 'ready') {
    const thumb = media.variants.find((v) => v.format === 'webp' && v.width === 480) ?? media.variants.find((v) => v.format === 'webp') ?? { url: media.url, width: media.width, height: media.height };
    return <img src={thumb.url} alt={media.alt} width={thumb.width} height={thumb.height} loading="lazy" decoding="async" className="aspect-[4/3] w-full bg-surface-muted object-contain" />;
  }
  const failed = media.state === 'failed';
  return (
    <div role="status" className={failed ? `${box} border-b border-danger/40 bg-danger-soft` : `${box} bg-surface-muted text-muted-fg`}>
      {failed ? (
        <>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 text-danger" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7.5v5.5M12 16.5v.01" />
          </svg>
          <p className="font-semibold text-danger">Its sizes could not be made</p>
          <p className="text-fg">{media.error ?? 'The image could not be processed.'}</p>
        </>
      ) : (
        <>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 animate-spin motion-reduce:animate-none" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M12 3a9 9 0 1 0 9 9" />
          </svg>
          <p className="font-semibold text-fg">Making the image's sizes…</p>
          <p>Posts can use it already.</p>
        </>
      )}
    </div>
  );
}
