import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { MediaItem, MediaList } from '@site/contracts/media';
import { mediaLibraryKey } from '../api/list-media';

type Library = InfiniteData<MediaList, string | null>;

function edit(client: QueryClient, change: (media: MediaItem[], page: number) => MediaItem[]) {
  client.setQueryData<Library>(mediaLibraryKey, (library) =>
    library ? { ...library, pages: library.pages.map((page, i) => ({ ...page, media: change(page.media, i) })) } : library,
  );
}

/** Puts the server's answer for an image in place on whichever loaded page holds it (the other pages stay). */
export function replaceInLibrary(client: QueryClient, item: MediaItem) {
  edit(client, (media) => media.map((m) => (m.id === item.id ? item : m)));
}

/** A new upload (or one uploaded again): first in the library, wherever it was before. */
export function prependToLibrary(client: QueryClient, item: MediaItem) {
  edit(client, (media, page) => [...(page === 0 ? [item] : []), ...media.filter((m) => m.id !== item.id)]);
}

export function removeFromLibrary(client: QueryClient, id: string) {
  edit(client, (media) => media.filter((m) => m.id !== id));
}
