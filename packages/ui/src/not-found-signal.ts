import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * What a page's not-found state tells the shell (a window event whose detail is the path): the shell's page-view
 * tracker then does not count that path as a page view. Only pages that answered are visits the owner wants in Top
 * pages; an unknown report id or slug is not.
 */
export const NOT_FOUND_EVENT = 'site:not-found';

export type NotFoundDetail = { path: string };

/** Says that this page, at the current path, is a not-found state (while `active`). Browser only, like every effect. */
export function useNotFoundSignal(active = true): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!active) return;
    window.dispatchEvent(new CustomEvent<NotFoundDetail>(NOT_FOUND_EVENT, { detail: { path: pathname } }));
  }, [active, pathname]);
}
