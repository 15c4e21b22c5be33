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

export function applyTheme(preference: ThemePreference): void {
  const dark = preference === 'dark' || (preference === 'system' && systemPrefersDark());
  document.documentElement.classList.toggle('dark', dark);
  // What the theme toggle's icon follows (theme.css), as the inline script in index.html sets it before hydration.
  document.documentElement.setAttribute('data-theme-preference', preference);
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
    applyTheme(preference);
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
  const unsub = useThemeStore.subscribe((s) => applyTheme(s.preference));
  return () => {
    mq?.removeEventListener('change', onChange);
    unsub();
  };
}
