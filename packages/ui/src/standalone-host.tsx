import { useEffect, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { startThemeSync, useThemeStore } from './use-theme-store';
import { ThemeToggle } from './theme-toggle';
import { Toasts } from './toasts';

/**
 * The minimal host a remote runs in alone (`pnpm --filter mfe-x preview`): router, theme and toasts,
 * no shell. Opening the remote's base URL lands on its home route.
 */
export function StandaloneHost({ name, home, children }: { name: string; home: string; children: ReactNode }) {
  const base = `/mfe/${name}/`;
  if (window.location.pathname.startsWith(base)) window.history.replaceState(null, '', home);
  useEffect(() => startThemeSync(), []);
  const preference = useThemeStore((s) => s.preference);
  return (
    <BrowserRouter>
      <div className="min-h-screen bg-bg text-fg">
        <div className="flex items-center justify-between border-b border-border bg-surface px-4 py-2 text-sm text-muted-fg">
          <span>
            Standalone preview of <strong className="text-fg">mfe-{name}</strong>
          </span>
          <ThemeToggle key={preference} />
        </div>
        <main id="main">{children}</main>
      </div>
      <Toasts richColors closeButton position="top-center" />
    </BrowserRouter>
  );
}
