import { beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, nextTheme, readStoredTheme, THEME_STORAGE_KEY, useThemeStore } from '../use-theme-store';

describe('theme preference', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.className = '';
  });

  it('cycles light -> dark -> system -> light', () => {
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
    expect(nextTheme('system')).toBe('light');
  });

  it('falls back to light for anything but the three known values', () => {
    for (const garbage of ['purple', '', 'DARK', '{"a":1}']) {
      localStorage.setItem(THEME_STORAGE_KEY, garbage);
      expect(readStoredTheme()).toBe('light');
    }
    localStorage.setItem(THEME_STORAGE_KEY, 'system');
    expect(readStoredTheme()).toBe('system');
  });

  it('stores the choice, shows its icon at once and puts the dark class on <html> after the next paint', async () => {
    useThemeStore.getState().setPreference('light');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    useThemeStore.getState().cycle();
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme-preference')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    // Two presses within one frame: the last one's colours win.
    useThemeStore.getState().cycle();
    useThemeStore.getState().cycle();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(useThemeStore.getState().preference).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    applyTheme('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.getAttribute('data-theme-preference')).toBe('light');
  });
});
