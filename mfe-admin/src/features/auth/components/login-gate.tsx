import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { ADMIN_MESSAGES, adminLoginRequestSchema, type AdminLoginRequest } from '@site/contracts/admin';
import { Button, Card, usePageHead } from '@site/ui';
import { adminPages } from '../../../config/pages';
import { useSessionStore } from '../../../lib/session-store';
import { LoginError, useLoginMutation } from '../api/login';

function waitText(seconds: number): string {
  if (seconds <= 0) return 'You can try again now.';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const parts = [m > 0 ? `${m} ${m === 1 ? 'minute' : 'minutes'}` : '', s > 0 ? `${s} ${s === 1 ? 'second' : 'seconds'}` : ''].filter(Boolean);
  return `Try again in ${parts.join(' ')}.`;
}

/** 'Admin Access': the password gate. The server checks the password; this form only sends it (the field is required). */
export function LoginGate({ passwordConfigured }: { passwordConfigured: boolean }) {
  // Shown on any admin URL while signed out: the tab names the gate; the screen's own head returns after sign-in.
  usePageHead(adminPages.gate);
  const setSession = useSessionStore((s) => s.setSession);
  const signIn = useLoginMutation();
  // The message stays until the next try; typing clears it (except while logins are refused for a while).
  const form = useForm<AdminLoginRequest>({ defaultValues: { password: '' }, resolver: zodResolver(adminLoginRequestSchema), reValidateMode: 'onSubmit' });
  const [notConfigured, setNotConfigured] = useState(!passwordConfigured);
  /** Epoch ms until which the server refuses logins (429). */
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const errorId = useId();
  const hintId = useId();
  const error = form.formState.errors.password?.message;
  const busy = signIn.isPending;

  useEffect(() => {
    if (lockedUntil === null) return;
    const timer = window.setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= lockedUntil) {
        setLockedUntil(null);
        form.clearErrors('password');
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [lockedUntil, form]);

  const locked = lockedUntil !== null && now < lockedUntil;

  /** A refused password: the field is cleared and says why, and keeps the focus. */
  function refused(err: unknown) {
    form.setValue('password', '');
    const say = (message: string) => form.setError('password', { type: 'server', message }, { shouldFocus: true });
    if (err instanceof LoginError && err.status === 401) say(ADMIN_MESSAGES.incorrectPassword);
    else if (err instanceof LoginError && err.status === 429) {
      const seconds = err.retryAfterSeconds ?? 15 * 60;
      setLockedUntil(Date.now() + seconds * 1000);
      setNow(Date.now());
      say(ADMIN_MESSAGES.tooManyAttempts);
    } else if (err instanceof LoginError && err.status === 503) {
      setNotConfigured(true);
      form.setFocus('password');
    } else if (err instanceof LoginError && err.status === 400) say(err.message);
    else say('Could not reach the server. Check your connection and try again.');
  }

  const onSubmit = (e: FormEvent) => {
    // Nothing is sent (nor checked) while a login is under way, refused for a while, or impossible.
    if (busy || locked || notConfigured) return e.preventDefault();
    return form.handleSubmit((body) => signIn.mutate(body, { onSuccess: setSession, onError: refused }))(e);
  };

  return (
    <div className="mx-auto flex min-h-[70vh] w-full max-w-md flex-col justify-center px-4 py-12 sm:py-16">
      <Card className="p-6 sm:p-8">
        <div aria-hidden="true" className="mb-5 flex h-12 w-12 items-center justify-center rounded-xl bg-primary-soft text-primary-soft-fg">
          <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </div>
        <h1 className="text-2xl font-bold text-fg">{adminPages.gate.heading}</h1>
        <p id={hintId} className="mt-2 text-muted-fg">
          Enter the admin password to manage blog posts, messages and alerts.
        </p>
        {notConfigured && (
          <div role="alert" className="mt-5 rounded-xl border border-warning/40 bg-warning-soft p-4 text-sm text-fg">
            <p className="font-semibold">No admin password is set on this server.</p>
            <p className="mt-1">{ADMIN_MESSAGES.notConfigured}</p>
          </div>
        )}
        <form className="mt-6 space-y-4" noValidate onSubmit={onSubmit}>
          <div>
            <label htmlFor="admin-password" className="block text-sm font-semibold text-fg">
              Password <span className="font-normal text-muted-fg">(required)</span>
            </label>
            <input
              id="admin-password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              disabled={notConfigured}
              {...form.register('password', { onChange: () => !locked && form.clearErrors('password') })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${errorId} ${hintId}` : hintId}
              className="mt-1.5 block w-full rounded-lg border border-border bg-bg px-3 py-2.5 text-fg shadow-sm placeholder:text-muted-fg focus:border-primary focus:outline-2 focus:outline-ring disabled:opacity-60 aria-[invalid=true]:border-danger"
            />
            <div aria-live="assertive">
              {error && (
                <p id={errorId} className="mt-2 text-sm font-medium text-danger">
                  {error}
                </p>
              )}
            </div>
            {/* Outside the live region: a ticking countdown must not be read out every second. */}
            {locked && lockedUntil !== null && <p className="mt-1 text-sm text-fg">{waitText(Math.ceil((lockedUntil - now) / 1000))}</p>}
          </div>
          <Button type="submit" size="lg" className="w-full" disabled={busy || locked || notConfigured} aria-busy={busy || undefined}>
            {busy ? 'Signing in…' : 'Sign In'}
          </Button>
        </form>
      </Card>
    </div>
  );
}
