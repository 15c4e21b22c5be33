import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MEDIA_FORMATS, MEDIA_MAX_BYTES } from '@site/contracts/media-rules';
import type { MediaItem } from '@site/contracts/media';
import { fetchWebsite, type FetchWebsiteOptions } from '../analysis/website/fetch-website';
import type { MediaService } from './media-service';

const IMAGE_TYPES = Object.values(MEDIA_FORMATS).map((f) => f.mime);

/** Fetches an image once and stores it in the media library. Throws the fetcher's errors or the media checks'. */
export type RemoteImageImporter = (url: string) => Promise<MediaItem>;

/**
 * Reads an image URL through the analysis' SSRF-safe fetcher (public addresses only, ports 80/443, pinned DNS, at
 * most 3 redirects, one deadline) with the upload's 10 MB cap and image types only, then stores it as an upload:
 * the same sniffing, pixel limit, metadata stripping and variants.
 */
export function createRemoteImageImporter(deps: { media: MediaService; fetch?: FetchWebsiteOptions }): RemoteImageImporter {
  return async (url) => {
    const page = await fetchWebsite(url, {
      ...deps.fetch,
      maxBytes: MEDIA_MAX_BYTES,
      expect: { contentTypes: IMAGE_TYPES, accept: `${IMAGE_TYPES.join(',')};q=0.9`, noun: 'JPEG, PNG, WebP, AVIF or GIF images' },
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'image-import-'));
    try {
      const file = path.join(dir, 'image');
      const bytes = page.raw ?? Buffer.alloc(0);
      await writeFile(file, bytes);
      const last = new URL(page.finalUrl).pathname.split('/').pop() ?? '';
      let name = last;
      try {
        name = decodeURIComponent(last);
      } catch {
        // A malformed escape: keep the name as sent.
      }
      name = name.slice(0, 200) || 'image';
      const { media } = await deps.media.upload({ path: file, filename: name, mimeType: page.contentType, size: bytes.length, source: 'url' });
      return media;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
