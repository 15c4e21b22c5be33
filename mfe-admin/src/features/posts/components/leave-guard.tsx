import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/**
 * Asks before leaving a form with unsaved changes: the browser's own prompt on reload or close (beforeunload),
 * and a dialog for links inside the site (the shell's header and footer, the sidebar, the preview). The shell's
 * router is not a data router, so links are caught in the capture phase before react-router sees them.
 */
export function LeaveGuard({ when, onLeave }: { when: boolean; onLeave?: () => void }) {
  const navigate = useNavigate();
  const [target, setTarget] = useState<string | null>(null);
  const whenRef = useRef(when);
  useEffect(() => {
    whenRef.current = when;
  });

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (!whenRef.current || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const anchor = (e.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if (anchor.target && anchor.target !== '_self') return;
      if (anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const here = window.location.pathname + window.location.search;
      if (url.pathname + url.search === here) return;
      e.preventDefault();
      e.stopPropagation();
      setTarget(url.pathname + url.search + url.hash);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);

  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && setTarget(null)}
      title="Leave without saving?"
      description="This post has changes that are not saved to the site. A copy stays on this device and is offered again when you come back."
      confirmLabel="Leave page"
      busyLabel="Leaving…"
      onConfirm={() => {
        const to = target;
        setTarget(null);
        onLeave?.();
        if (to) navigate(to);
      }}
    />
  );
}
