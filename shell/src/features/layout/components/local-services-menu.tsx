import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { LOCAL_SERVICES } from '../../../config/navigation';

/** The Local Services submenu: a disclosure button with the four towns, closed by Escape or a click outside. */
export function LocalServicesMenu() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // A new page closes the menu: adjusted while rendering (React's advice for state that follows a prop), not in an effect.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium text-fg hover:bg-surface-muted cursor-pointer"
      >
        {LOCAL_SERVICES.label}
        <svg width="14" height="14" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className={open ? 'rotate-180 transition-transform' : 'transition-transform'}>
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      {open && (
        <ul id={id} className="absolute left-0 top-full z-50 mt-2 w-64 rounded-xl border border-border bg-surface p-2 shadow-lg">
          <li>
            <Link to={LOCAL_SERVICES.to} className="block rounded-md px-3 py-2 text-sm font-semibold text-fg hover:bg-surface-muted">
              All service areas
            </Link>
          </li>
          {LOCAL_SERVICES.towns.map((town) => (
            <li key={town.path}>
              <Link to={town.path} className="block rounded-md px-3 py-2 text-sm text-fg hover:bg-surface-muted">
                {town.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
