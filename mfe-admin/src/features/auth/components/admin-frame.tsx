import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router-dom';
import type { AdminSection } from '@site/contracts/admin';
import { Button, notify } from '@site/ui';
import { useSessionStore } from '../../../lib/session-store';
import { getSession } from '../api/get-session';
import { saveSection } from '../api/save-section';
import { AdminSidebar } from './admin-sidebar';
import { LoginGate } from './login-gate';

/**
 * Every admin route renders inside this frame: it asks the server whether the visitor is logged in, shows the
 * 'Admin Access' gate when not, and otherwise the sidebar beside the page. The page's section is saved in the
 * session. A 401 from any admin call (the session ended) or a logout returns to the home page.
 * `section` null is /admin itself: it opens the section saved in the session.
 */
export function AdminFrame({ section, children }: { section: AdminSection | null; children?: ReactNode }) {
  const session = useSessionStore((s) => s.session);
  const expired = useSessionStore((s) => s.expired);
  const setSession = useSessionStore((s) => s.setSession);
  const reset = useSessionStore((s) => s.reset);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [loadError, setLoadError] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (session) return;
    const controller = new AbortController();
    getSession(controller.signal).then(
      (s) => {
        setLoadError(false);
        setSession(s);
      },
      () => {
        if (!controller.signal.aborted) setLoadError(true);
      },
    );
    return () => controller.abort();
  }, [session, attempt, setSession]);

  useEffect(() => {
    if (!expired) return;
    // One toast however many requests answered 401 at once.
    notify.info('Your admin session has ended. Please log in again.', { id: 'admin-session-ended' });
    // What the panel loaded goes with the session: the next sign-in loads it afresh.
    client.removeQueries();
    reset();
    navigate('/', { replace: true });
  }, [expired, reset, navigate, client]);

  const authenticated = session?.authenticated === true;
  const savedSection = session?.activeSection ?? null;
  useEffect(() => {
    if (!authenticated || !section || section === savedSection) return;
    saveSection(section).then(
      (s) => setSession(s),
      () => {
        // Not worth an interruption: the URL already says where the admin is; a 401 closes the panel itself.
      },
    );
  }, [authenticated, section, savedSection, setSession]);

  if (!session) {
    if (loadError) {
      return (
        <div role="alert" className="mx-auto flex min-h-[70vh] max-w-md flex-col justify-center px-4 py-16 text-center">
          <h1 className="text-2xl font-bold">Admin Access</h1>
          <p className="mt-3 text-muted-fg">The server did not answer. Check your connection and try again.</p>
          <Button className="mx-auto mt-6" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      );
    }
    return (
      <div role="status" aria-live="polite" className="min-h-screen">
        <span className="sr-only">Checking your admin session…</span>
      </div>
    );
  }

  if (!session.authenticated) return <LoginGate passwordConfigured={session.passwordConfigured} />;
  if (section === null) return <Navigate to={`/admin/${session.activeSection ?? 'dashboard'}`} replace />;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-4 px-3 py-4 sm:px-6 sm:py-6 lg:flex-row lg:gap-8 lg:px-8 lg:py-10">
      <aside className="lg:w-60 lg:shrink-0">
        <div className="lg:sticky lg:top-24">
          <AdminSidebar section={section} />
        </div>
      </aside>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
