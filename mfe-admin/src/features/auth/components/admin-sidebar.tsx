import * as Collapsible from '@radix-ui/react-collapsible';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { AdminSection } from '@site/contracts/admin';
import { cn, notify } from '@site/ui';
import { adminPages } from '../../../config/pages';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useSessionStore } from '../../../lib/session-store';
import { useLogoutMutation } from '../api/logout';

type Item = { to: string; label: string; section?: AdminSection; icon: string };

/** Simple line icons (24×24 paths), decorative. */
const ICONS = {
  dashboard: 'M4 13h6V4H4v9Zm0 7h6v-5H4v5Zm10 0h6v-9h-6v9Zm0-16v5h6V4h-6Z',
  alerts: 'M12 3a6 6 0 0 0-6 6v3.5L4.5 15v1.5h15V15L18 12.5V9a6 6 0 0 0-6-6Zm-2 15.5a2 2 0 0 0 4 0',
  posts: 'M5 4h14v16H5zM8 8h8M8 12h8M8 16h5',
  create: 'M12 5v14M5 12h14',
  integrations: 'M8 7a3 3 0 1 0-3 3M16 17a3 3 0 1 0 3-3M10 14l4-4M7 10l3 4M17 14l-3-4',
  media: 'M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5M15.5 9.5h.01',
  deploys: 'M12 3v12M7 10l5 5 5-5M5 19h14',
  home: 'M4 11 12 4l8 7v9h-5v-6H9v6H4z',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
};

const SECTIONS: Item[] = [
  { to: adminPages.dashboard.path, label: 'Dashboard', section: 'dashboard', icon: ICONS.dashboard },
  { to: adminPages.alerts.path, label: 'Alert Management', section: 'alerts', icon: ICONS.alerts },
  { to: adminPages.posts.path, label: 'Blog Posts', section: 'posts', icon: ICONS.posts },
  { to: adminPages.integrations.path, label: 'Integrations', section: 'integrations', icon: ICONS.integrations },
  { to: adminPages.media.path, label: 'Media', section: 'media', icon: ICONS.media },
  { to: adminPages.deploys.path, label: 'Deploys', section: 'deploys', icon: ICONS.deploys },
];

function Icon({ d }: { d: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  );
}

const itemClass = (active: boolean) =>
  cn(
    'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2',
    active ? 'bg-primary-soft text-primary-soft-fg' : 'text-fg hover:bg-surface-muted',
  );

/**
 * The panel's navigation: sections, Create Post, Home and Logout. A nav landmark with aria-current on the page
 * shown; below the lg breakpoint it folds into an "Admin menu" button (Radix Collapsible).
 */
export function AdminSidebar({ section }: { section: AdminSection | null }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const reset = useSessionStore((s) => s.reset);
  const desktop = useMediaQuery('(min-width: 1024px)');
  const [menuOpen, setMenuOpen] = useState(false);
  const logout = useLogoutMutation();
  const leaving = logout.isPending || logout.isSuccess;
  const open = desktop || menuOpen;
  const current = SECTIONS.find((s) => s.section === section);

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        reset();
        notify.success('You are logged out.');
        navigate('/');
      },
      onError: () => notify.error('Could not log out. Please try again.'),
    });

  const close = () => setMenuOpen(false);

  return (
    <Collapsible.Root open={open} onOpenChange={setMenuOpen} className="rounded-2xl border border-border bg-surface p-2 shadow-sm lg:p-3">
      <Collapsible.Trigger
        className="flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-semibold text-fg hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-offset-2 lg:hidden"
      >
        <span className="flex items-center gap-3">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} />
          </svg>
          Admin menu
        </span>
        {current && <span className="truncate font-normal text-muted-fg">{current.label}</span>}
      </Collapsible.Trigger>
      <Collapsible.Content>
        <nav aria-label="Admin" className="pt-2 lg:pt-0">
          <p className="hidden px-3 pb-2 pt-1 text-xs font-semibold uppercase tracking-wider text-muted-fg lg:block">Admin panel</p>
          <ul className="space-y-1">
            {SECTIONS.map((item) => {
              const here = pathname === item.to;
              return (
                <li key={item.to}>
                  <Link to={item.to} onClick={close} aria-current={here ? 'page' : item.section === section ? 'true' : undefined} className={itemClass(item.section === section)}>
                    <Icon d={item.icon} />
                    {item.label}
                  </Link>
                </li>
              );
            })}
            <li className="pt-2">
              <Link
                to={adminPages.createPost.path}
                onClick={close}
                aria-current={pathname === adminPages.createPost.path ? 'page' : undefined}
                className="flex w-full items-center justify-center gap-2 rounded-lg bg-primary px-3 py-2.5 text-sm font-semibold text-primary-fg shadow-sm hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2"
              >
                <Icon d={ICONS.create} />
                Create Post
              </Link>
            </li>
          </ul>
          <ul className="mt-3 space-y-1 border-t border-border pt-3">
            <li>
              <Link to="/" onClick={close} className={itemClass(false)}>
                <Icon d={ICONS.home} />
                Home
              </Link>
            </li>
            <li>
              <button type="button" onClick={onLogout} disabled={leaving} aria-busy={leaving || undefined} className={cn(itemClass(false), 'cursor-pointer disabled:opacity-60')}>
                <Icon d={ICONS.logout} />
                {leaving ? 'Logging out…' : 'Logout'}
              </button>
            </li>
          </ul>
        </nav>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
