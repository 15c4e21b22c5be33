import { useSyncExternalStore, type ReactNode } from 'react';
import type { ExternalToast, ToasterProps } from 'sonner';
import { useThemeStore } from './use-theme-store';

type Sonner = typeof import('./sonner-shared');

let loaded: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

/**
 * The toast library (sonner, about 10 kB gz) loads with the first toast, not with the page: most visits show none.
 * A load that failed (offline) is tried again by the next toast.
 */
function loadSonner(): Promise<Sonner> {
  if (!loading) {
    const started = import('./sonner-shared').then((m) => {
      loaded = m;
      for (const listener of listeners) listener();
      return m;
    });
    started.catch(() => {
      if (loading === started) loading = null;
    });
    loading = started;
  }
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The page's toaster (sonner's `Toaster`, same props). It renders nothing until the first toast loads sonner (on the
 * server and while hydrating too, so the markup always matches); sonner then shows the toasts raised before the
 * toaster subscribed. Its theme follows the visitor's preference unless `theme` is given: the toaster itself reads
 * the theme store, so a theme change re-renders the toaster and the toggle, not the page around them.
 */
export function Toasts(props: ToasterProps) {
  const sonner = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
  const preference = useThemeStore((s) => s.preference);
  return sonner ? <sonner.Toaster theme={preference} {...props} /> : null;
}

type Show = (message: ReactNode, data?: ExternalToast) => void;
const show =
  (kind: 'success' | 'error' | 'info' | 'loading'): Show =>
  (message, data) => {
    loadSonner().then(
      ({ toast }) => void toast[kind](message, data),
      () => undefined, // offline before the first toast: the page's own inline states still tell what happened
    );
  };

/**
 * Toasts, with sonner's calls (`notify.success(message, { description })`); they appear once sonner has loaded (at
 * the first one, a few milliseconds). To turn a toast into another (loading, then success), give both the same `id`.
 * Use this, not sonner's `toast`: only toasts raised through here make the toaster load.
 */
export const notify = {
  success: show('success'),
  error: show('error'),
  info: show('info'),
  loading: show('loading'),
  /** Starts loading sonner ahead of a toast that is likely soon (e.g. when a form gets focus). */
  prepare: (): void => void loadSonner().catch(() => undefined),
};
