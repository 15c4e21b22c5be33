import { create } from 'zustand';
import type { AdminSession } from '@site/contracts/admin';

type SessionState = {
  /** null until the first answer of GET /api/admin/session. */
  session: AdminSession | null;
  /** Set when an admin request answered 401: the session ended (expiry or logout elsewhere). */
  expired: boolean;
  setSession: (session: AdminSession) => void;
  expire: () => void;
  /** After logout or after the expiry was handled: logged out, nothing pending. */
  reset: () => void;
};

const loggedOut = (s: AdminSession | null): AdminSession => ({
  authenticated: false,
  passwordConfigured: s?.passwordConfigured ?? true,
  activeSection: null,
  expiresAt: null,
});

/** The admin session as the server last described it; every feature reads it through here. */
export const useSessionStore = create<SessionState>((set) => ({
  session: null,
  expired: false,
  setSession: (session) => set({ session, expired: false }),
  expire: () => set((s) => (s.session?.authenticated ? { session: loggedOut(s.session), expired: true } : s)),
  reset: () => set((s) => ({ session: loggedOut(s.session), expired: false })),
}));
