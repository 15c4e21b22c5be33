import type { z } from 'zod';
import { ApiError, requestJson } from '@site/ui';
import { useSessionStore } from './session-store';

/**
 * An `/api/admin/*` call: `requestJson` plus the session rule: a 401 means the session ended (24 hours of age or
 * inactivity, or a logout in another tab), so the panel is closed and the visitor returns to the home page.
 */
export async function adminRequest<S extends z.ZodType>(url: string, schema: S, init: RequestInit & { json?: unknown } = {}): Promise<z.infer<S>> {
  try {
    return await requestJson(url, schema, { credentials: 'same-origin', ...init });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) useSessionStore.getState().expire();
    throw err;
  }
}

/** The error's own message when it has one a person can act on, else the fallback sentence. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status !== 0 && err.status < 500 && err.message) return err.message;
  return fallback;
}
