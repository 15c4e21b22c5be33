import { useEffect } from 'react';

/**
 * Marks the document as live (`<html data-hydrated="true">`, as RemoteRoutes does for a remote's page) when the
 * shell itself shows the page's content: the not-found page, or a remote's area that could not be loaded.
 */
export function useMarkLive(): void {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}
