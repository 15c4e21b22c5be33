import { create } from 'zustand';

export type ThemePreference = 'light' | 'dark' | 'system';
export const THEME_STORAGE_KEY = 'theme';
const ORDER: ThemePreference[] = ['light', 'dark', 'system'];

/** Reads the stored preference; anything but the three known values falls back to light (spec section 4). */
export function readStoredTheme(): ThemePreference {
  try {
    const v = window.localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'dark' || v === 'system' || v === 'light' ? v : 'light';
  } catch {
    return 'light';
  }
}

export function nextTheme(current: ThemePreference): ThemePreference {
  return ORDER[(ORDER.indexOf(current) + 1) % ORDER.length]!;
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

/** The preference whose colours wait for the next paint (see applyTheme), if any. */
let pendingColors: ThemePreference | undefined;

/**
 * Marks <html> with the preference (the toggle's icon follows it, theme.css) and its colours (the `dark` class).
 *
 * With `afterPaint` (a press of the toggle), the colours change in the frame after the one that shows the toggle's
 * new icon: switching `dark` restyles every element of the page (tens of milliseconds on a slow phone), and done in the
 * click's own frame it kept the press from being answered for that long. The icon's
 * attribute restyles only the icons. The page's colours follow one frame later, which the eye does not tell apart.
 */
export function applyTheme(preference: ThemePreference, options: { afterPaint?: boolean } = {}): void {
  const root = document.documentElement;
  // What the theme toggle's icon follows (theme.css), as the inline script in index.html sets it before hydration.
  root.setAttribute('data-theme-preference', preference);
  const colors = () => root.classList.toggle('dark', preference === 'dark' || (preference === 'system' && systemPrefersDark()));
  if (!options.afterPaint || typeof requestAnimationFrame !== 'function') {
    pendingColors = undefined;
    colors();
    return;
  }
  if (pendingColors === preference) return;
  pendingColors = preference;
  // rAF runs before the next paint; the task it queues runs after that paint.
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (pendingColors !== preference) return;
      pendingColors = undefined;
      colors();
    }, 0),
  );
}

type ThemeState = {
  preference: ThemePreference;
  setPreference: (p: ThemePreference) => void;
  cycle: () => void;
};

/**
 * The initial state (zustand's server snapshot, `getInitialState`) is always light, so the server's markup and the
 * browser's hydrating render agree whatever the visitor stored; the stored preference is set right after, and
 * components showing it update once hydrated. The inline script in index.html has already applied the stored theme
 * to the page before the first paint, so nothing flashes.
 */
export const useThemeStore = create<ThemeState>((set, get) => ({
  preference: 'light',
  setPreference: (preference) => {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, preference);
    } catch (err) {
      console.warn('Could not store the theme preference', err);
    }
    applyTheme(preference, { afterPaint: true });
    set({ preference });
  },
  cycle: () => get().setPreference(nextTheme(get().preference)),
}));
if (typeof window !== 'undefined') useThemeStore.setState({ preference: readStoredTheme() });

/** Applies the stored theme now and follows the OS setting live while the preference is `system`. */
export function startThemeSync(): () => void {
  applyTheme(useThemeStore.getState().preference);
  const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (useThemeStore.getState().preference === 'system') applyTheme('system');
  };
  mq?.addEventListener('change', onChange);
  const unsub = useThemeStore.subscribe((s, previous) => {
    if (s.preference !== previous.preference) applyTheme(s.preference, { afterPaint: true });
  });
  return () => {
    mq?.removeEventListener('change', onChange);
    unsub();
  };
}
