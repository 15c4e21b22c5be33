import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button, Container, SITE, ThemeToggle, useGoToSection } from '@site/ui';
import { LOCAL_SERVICES, NAV_ITEMS } from '../../../config/navigation';
import { LocalServicesMenu } from './local-services-menu';
import { NavLink } from './nav-link';

const linkClass = 'whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium text-fg hover:bg-surface-muted';
const mobileLinkClass = 'block rounded-lg px-3 py-3 text-base font-medium text-fg hover:bg-surface-muted';

export function Header() {
  const menu = useRef<HTMLElement>(null);
  const goToSection = useGoToSection();
  const { pathname } = useLocation();
  // The menu closes when its link has been followed (and before a section link scrolls, which measures the page).
  const close = () => hideMenu(menu.current);
  // A new page closes the menu, however the page was opened; not the first page's hydration (a menu the visitor opened
  // before the page's code had loaded stays open).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    hideMenu(menu.current);
  }, [pathname]);
  const [home, ...rest] = NAV_ITEMS;

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-surface/90 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
      {/* Wider than the page column: the name, the full navigation and both buttons fit side by side from 1280 px. */}
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="flex items-center gap-2 font-bold text-fg">
          {/* The site's mark inline (what /favicon.svg draws): an SVG <img> is a document of its own to the browser, a
              long task on a phone while the page comes to life. */}
          <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" className="shrink-0">
            <rect width="32" height="32" rx="7" fill="#1d4ed8" />
            <path d="M9 22l5-12h4l5 12h-3.4l-1-2.6h-5.2l-1 2.6zm5.4-5.2h3.2L16 12.6z" fill="#fff" />
          </svg>
          {/* The name in two short lines fits beside the full navigation at every width, so it is never hidden. */}
          <span className="flex flex-col leading-tight">
            <span className="whitespace-nowrap">{SITE.shortName}</span>{' '}
            <span className="whitespace-nowrap text-xs font-semibold text-muted-fg">{SITE.name.slice(SITE.shortName.length).trim()}</span>
          </span>
          <span className="sr-only">, home</span>
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-0.5 xl:flex">
          <NavLink item={home!} className={linkClass} />
          <LocalServicesMenu />
          {rest.map((item) => (
            <NavLink key={item.label} item={item} className={linkClass} />
          ))}
        </nav>

        <div className="flex items-center gap-2">
          <ThemeToggle />
          {/* A wrapper carries the breakpoint: the buttons' own inline-flex would beat a `hidden` on them. */}
          <div className="hidden items-center gap-2 md:flex">
            <Button variant="secondary" className="whitespace-nowrap" onClick={() => goToSection('services')}>
              Pricing
            </Button>
            <Button className="whitespace-nowrap" onClick={() => goToSection('contact')}>
              Free Consultation
            </Button>
          </div>
          <MenuButton menuId={MENU_ID} />
        </div>
      </div>

      {/*
        A popover: in the top layer, over the page and outside the header's backdrop blur, so opening it lays out and
        paints the menu alone. Light dismiss (a tap outside, Escape) and the button work without any script.
      */}
      <nav
        ref={menu}
        id={MENU_ID}
        aria-label="Mobile"
        popover="auto"
        className="fixed inset-x-0 top-16 bottom-auto m-0 h-auto max-h-[calc(100vh-4rem)] w-full max-w-none overflow-y-auto border-x-0 border-y border-border bg-surface p-0 text-fg shadow-lg xl:hidden"
      >
        <Container className="py-3">
          <ul className="space-y-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.label}>
                <NavLink item={item} className={mobileLinkClass} onNavigate={close} />
              </li>
            ))}
            <li>
              <Link to={LOCAL_SERVICES.to} className={mobileLinkClass} onClick={close}>
                {LOCAL_SERVICES.label}
              </Link>
              <ul className="ml-4 border-l border-border pl-2">
                {LOCAL_SERVICES.towns.map((t) => (
                  <li key={t.path}>
                    <Link to={t.path} className="block rounded-lg px-3 py-2 text-sm text-muted-fg hover:bg-surface-muted" onClick={close}>
                      {t.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          </ul>
          <div className="mt-3 grid grid-cols-2 gap-2 md:hidden">
            <Button variant="secondary" onClick={() => (close(), goToSection('services'))}>
              Pricing
            </Button>
            <Button onClick={() => (close(), goToSection('contact'))}>Free Consultation</Button>
          </div>
        </Container>
      </nav>
    </header>
  );
}

const MENU_ID = 'mobile-menu';

/**
 * The phone menu's button. The browser opens and closes the menu itself (a popover: the button's popovertarget,
 * Escape, a tap outside, even before this code has loaded) and tells assistive technology whether it is expanded (a
 * popovertarget button has that state natively: an aria-expanded beside it is invalid HTML). What the button says
 * (Open/Close menu, its icon) follows the menu's toggle event after the next paint, so the tap that opens the menu
 * costs no React render; and this is a component of its own, so that render is the button's alone, not the header's
 * with all its links (the phone menu's INP, e2e/scripts/inp.mjs).
 */
function MenuButton({ menuId }: { menuId: string }) {
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const nav = document.getElementById(menuId);
    if (!nav) return;
    let pending = 0;
    const follow = (open: boolean) => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => setTimeout(() => setMenuOpen(open)));
    };
    const onToggle = (e: Event) => follow((e as ToggleEvent).newState === 'open');
    // Where it opens: under the header, which is at the top of the window (top-16) unless a release preview's or a
    // development override's banner is above it; only then is the header's place read (a layout read on the tap is
    // slow on a phone).
    const onBeforeToggle = (e: Event) => {
      if ((e as ToggleEvent).newState !== 'open') return;
      const top = document.querySelector('#release-preview, #dev-override') ? `${Math.max(0, nav.parentElement!.getBoundingClientRect().bottom)}px` : '';
      if (nav.style.top !== top) nav.style.top = top;
    };
    nav.addEventListener('toggle', onToggle);
    nav.addEventListener('beforetoggle', onBeforeToggle);
    // Opened before this code had loaded (the browser opens the popover itself): the button says so from now on.
    if (typeof nav.showPopover === 'function' && nav.matches(':popover-open')) follow(true);
    return () => {
      cancelAnimationFrame(pending);
      nav.removeEventListener('toggle', onToggle);
      nav.removeEventListener('beforetoggle', onBeforeToggle);
    };
  }, [menuId]);
  return (
    <button
      type="button"
      className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg border border-border text-fg xl:hidden cursor-pointer"
      popoverTarget={menuId}
      aria-controls={menuId}
      aria-label={menuOpen ? 'Close menu' : 'Open menu'}
    >
      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 6h16M4 12h16M4 18h16" />}
      </svg>
    </button>
  );
}

/** Closes the phone menu if it is open (a browser without popovers never opened it). */
function hideMenu(nav: HTMLElement | null): void {
  if (nav && typeof nav.hidePopover === 'function' && nav.matches(':popover-open')) nav.hidePopover();
}
