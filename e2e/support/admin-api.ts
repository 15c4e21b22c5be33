import { expect, type APIRequestContext } from '@playwright/test';
import { BASE_URL, E2E_ADMIN_PASSWORD } from './env';

/*
 * The admin API as a test reads it: log in with the suite's admin password, then read or change leads and posts.
 * Browser tests assert through these instead of opening the database, so they run on SQLite and PostgreSQL alike.
 * The request context keeps the session cookie; state-changing calls send the site's Origin (the API's CSRF check).
 */

const ORIGIN = { origin: BASE_URL };

export async function adminLogin(request: APIRequestContext): Promise<void> {
  const res = await request.post('/api/admin/login', { headers: ORIGIN, data: { password: E2E_ADMIN_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

export async function adminGet<T = unknown>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

export async function adminSend<T = unknown>(
  request: APIRequestContext,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await request.fetch(path, { method, headers: ORIGIN, ...(data === undefined ? {} : { data }) });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}
