import { nextTheme, useThemeStore, type ThemePreference } from './use-theme-store';

const LABEL: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

function Icon({ preference }: { preference: ThemePreference }) {
  const common = {
    width: 20,
    height: 20,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    'aria-hidden': true,
    'data-theme-icon': preference,
  } as const;
  if (preference === 'dark')
    return (
      <svg {...common}>
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
    );
  if (preference === 'system')
    return (
      <svg {...common}>
        <rect x="3" y="4" width="18" height="12" rx="2" />
        <path d="M8 20h8M12 16v4" />
      </svg>
    );
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

/**
 * Cycles light -> dark -> system -> light. All three icons are in the markup and theme.css shows the one of
 * `<html data-theme-preference>`: the server renders the toggle without knowing the stored theme, and the inline
 * theme script marks <html> before the first paint, so a visitor with a dark preference never sees the sun icon.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const preference = useThemeStore((s) => s.preference);
  const cycle = useThemeStore((s) => s.cycle);
  return (
    <button
      type="button"
      onClick={cycle}
      data-theme-preference={preference}
      aria-label={`Theme: ${LABEL[preference]}. Switch to ${LABEL[nextTheme(preference)]}`}
      title={`Theme: ${LABEL[preference]}`}
      className={
        className ??
        'inline-flex h-10 w-10 items-center justify-center rounded-lg border border-border text-fg hover:bg-surface-muted cursor-pointer'
      }
    >
      <Icon preference="light" />
      <Icon preference="dark" />
      <Icon preference="system" />
    </button>
  );
}
