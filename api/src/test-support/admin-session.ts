import type { TestServer } from './test-server';

/** The admin password of test servers started with `ADMIN_ENV`. */
export const TEST_ADMIN_PASSWORD = 'test admin password for health details';
export const ADMIN_ENV = { ADMIN_PASSWORD: TEST_ADMIN_PASSWORD };

/**
 * Logs in as the admin panel does (same-origin POST /api/admin/login) and returns the session for a `Cookie` header:
 * what the admin-only parts of public endpoints (the details of `/api/health`) need.
 */
export async function adminCookie(server: Pick<TestServer, 'url' | 'config'>, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const response = await fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.config.publicOrigin },
    body: JSON.stringify({ password }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 200 || !cookie) throw new Error(`the admin login answered ${response.status}: ${await response.text()}`);
  return cookie;
}
