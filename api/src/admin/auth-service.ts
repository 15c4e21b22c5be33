import { randomBytes } from 'node:crypto';
import {
  ADMIN_MESSAGES,
  ADMIN_SESSION_IDLE_MS,
  ADMIN_SESSION_MAX_AGE_MS,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES,
  type AdminSection,
  type AdminSession,
} from '@site/contracts/admin';
import type { AdminSessionsRepository, StoredAdminSession } from './admin-sessions-repository';
import { clientKey } from '../lib/client-key';
import type { Clock } from '../lib/clock';
import { createCounter, secondsUntil, takePoint, type RateLimitStore } from '../lib/rate-limit-counter';
import { RateLimitedError, UnauthorizedError, UnavailableError } from '../lib/domain-errors';
import { tokenHash, type PasswordVerifier } from './password';

export interface AdminAuthService {
  readonly passwordConfigured: boolean;
  /**
   * Checks the password for a client address. Success: a new session and its token (for the cookie).
   * Throws 'admin_not_configured' (unavailable), 'rate_limited' after too many failures, 'invalid_password'.
   */
  login(password: string, clientAddress: string): Promise<{ token: string; session: AdminSession }>;
  /** The live session of a token, its inactivity clock restarted; undefined when missing, expired or logged out. */
  authenticate(token: string | undefined): Promise<ActiveSession | undefined>;
  describe(session: ActiveSession | undefined): AdminSession;
  setSection(session: ActiveSession, section: AdminSection): Promise<AdminSession>;
  /** Deletes the session server-side: its cookie is worthless afterwards. */
  logout(token: string | undefined): Promise<void>;
  /** Removes expired sessions (failure counters expire on their own). */
  purge(): Promise<void>;
}

export interface ActiveSession {
  idHash: string;
  createdAt: string;
  lastSeenAt: string;
  activeSection: AdminSection;
}

export interface AdminAuthDeps {
  sessions: AdminSessionsRepository;
  verifier: PasswordVerifier;
  clock: Clock;
  /**
   * Called once when a client reaches LOGIN_MAX_FAILURES failures within the window (the alert); `address` is what it
   * is counted by: the IPv4 address, or the IPv6 /64 (`2001:db8:1:2::/64`).
   */
  onFailureBurst?: (event: { address: string; failures: number }) => void;
  /** Told of each refused login (the metrics): a wrong password (`lockedOut` when it was the client's last allowed one), or a locked-out client. */
  onLoginFailure?: (event: { reason: 'invalid_password' | 'locked_out'; lockedOut: boolean }) => void;
  /** Scales the lockout (RATE_LIMIT_MULTIPLIER); the burst alert stays at LOGIN_MAX_FAILURES. */
  lockoutMultiplier?: number;
  /** Where failed logins are counted: this process, or Redis shared by every instance (REDIS_URL). */
  rateLimits?: RateLimitStore;
  maxAgeMs?: number;
  idleMs?: number;
  /** At most one write of last_seen_at per session per this many ms (default one minute). */
  touchEveryMs?: number;
}

export function createAdminAuthService(deps: AdminAuthDeps): AdminAuthService {
  const maxAgeMs = deps.maxAgeMs ?? ADMIN_SESSION_MAX_AGE_MS;
  const idleMs = deps.idleMs ?? ADMIN_SESSION_IDLE_MS;
  const touchEveryMs = deps.touchEveryMs ?? 60_000;
  const multiplier = deps.lockoutMultiplier && deps.lockoutMultiplier > 0 ? deps.lockoutMultiplier : 1;
  const lockoutAt = Math.max(LOGIN_MAX_FAILURES, Math.floor(LOGIN_MAX_FAILURES * multiplier));
  /**
   * Failed logins per client (an address; an IPv6 /64) in a 15-minute window that starts at the first attempt
   * (rate-limiter-flexible: in memory, or in Redis so that every instance sees the same count). Each attempt takes its
   * slot before the password is checked and keeps it if the password was wrong; a success clears the client.
   */
  const failures = createCounter({ keyPrefix: 'admin-login-failures', points: lockoutAt, windowMs: LOGIN_FAILURE_WINDOW_MS, store: deps.rateLimits });

  const now = () => deps.clock().getTime();

  function isLive(s: StoredAdminSession, at: number): boolean {
    return Date.parse(s.createdAt) + maxAgeMs > at && Date.parse(s.lastSeenAt) + idleMs > at;
  }

  function toActive(s: StoredAdminSession): ActiveSession {
    const section = (['dashboard', 'alerts', 'posts'] as const).find((v) => v === s.activeSection) ?? 'dashboard';
    return { idHash: s.idHash, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, activeSection: section };
  }

  const describe = (s: ActiveSession | undefined): AdminSession =>
    s
      ? {
          authenticated: true,
          passwordConfigured: deps.verifier.configured,
          activeSection: s.activeSection,
          expiresAt: new Date(Math.min(Date.parse(s.createdAt) + maxAgeMs, Date.parse(s.lastSeenAt) + idleMs)).toISOString(),
        }
      : { authenticated: false, passwordConfigured: deps.verifier.configured, activeSection: null, expiresAt: null };

  return {
    passwordConfigured: deps.verifier.configured,
    describe,

    async login(password, clientAddress) {
      if (!deps.verifier.configured) throw new UnavailableError(ADMIN_MESSAGES.notConfigured, { code: 'admin_not_configured' });
      const client = clientKey(clientAddress);
      // Counted before the check (a scrypt run of a few hundred ms): every guess already in flight holds a slot, so a burst gets
      // at most `lockoutAt` passwords checked, on one instance or on all of them.
      const slot = await takePoint(failures, client);
      if (!slot.taken) {
        deps.onLoginFailure?.({ reason: 'locked_out', lockedOut: false });
        throw new RateLimitedError(ADMIN_MESSAGES.tooManyAttempts, secondsUntil(slot.res.msBeforeNext, LOGIN_FAILURE_WINDOW_MS));
      }
      let ok: boolean;
      try {
        ok = await deps.verifier.verify(password);
      } catch (error) {
        // No password was checked: not a guess to count.
        await slot.giveBack().catch(() => undefined);
        throw error;
      }
      if (!ok) {
        // One attempt holds slot number LOGIN_MAX_FAILURES in the window: one alert per burst, whichever instance took it.
        if (slot.res.consumedPoints === LOGIN_MAX_FAILURES) deps.onFailureBurst?.({ address: client, failures: LOGIN_MAX_FAILURES });
        deps.onLoginFailure?.({ reason: 'invalid_password', lockedOut: slot.res.consumedPoints === lockoutAt });
        throw new UnauthorizedError(ADMIN_MESSAGES.incorrectPassword, { code: 'invalid_password' });
      }
      await failures.delete(client);
      const token = randomBytes(32).toString('base64url');
      const iso = new Date(now()).toISOString();
      const stored: StoredAdminSession = { idHash: tokenHash(token), createdAt: iso, lastSeenAt: iso, activeSection: 'dashboard' };
      await deps.sessions.insert(stored);
      return { token, session: describe(toActive(stored)) };
    },

    async authenticate(token) {
      if (!token || token.length > 200) return undefined;
      const stored = await deps.sessions.find(tokenHash(token));
      if (!stored) return undefined;
      const at = now();
      if (!isLive(stored, at)) {
        await deps.sessions.delete(stored.idHash);
        return undefined;
      }
      if (at - Date.parse(stored.lastSeenAt) >= touchEveryMs) {
        stored.lastSeenAt = new Date(at).toISOString();
        await deps.sessions.touch(stored.idHash, stored.lastSeenAt);
      }
      return toActive(stored);
    },

    async setSection(session, section) {
      await deps.sessions.setSection(session.idHash, section);
      return describe({ ...session, activeSection: section });
    },

    async logout(token) {
      if (token) await deps.sessions.delete(tokenHash(token));
    },

    async purge() {
      const at = now();
      await deps.sessions.purgeExpired({
        createdBefore: new Date(at - maxAgeMs).toISOString(),
        seenBefore: new Date(at - idleMs).toISOString(),
      });
    },
  };
}
