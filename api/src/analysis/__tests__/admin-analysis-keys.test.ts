import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHealthSchema } from '@site/contracts/admin';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Issue 20: the owner learns on the dashboard which keys turn the analysis tool's sample data into real data, and
 * whether each is set. The key values themselves never leave the server.
 */

const PASSWORD = 'admin password for analysis keys';
const GOOGLE_KEY = 'google-key-value-never-shown';

async function adminGet(server: TestServer, path: string, method = 'GET') {
  const login = await fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.config.publicOrigin },
    body: JSON.stringify({ password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const res = await fetch(`${server.url}${path}`, { method, headers: { cookie, origin: server.config.publicOrigin } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('admin health: the analysis keys', () => {
  let withGoogle: TestServer;
  let without: TestServer;

  beforeAll(async () => {
    withGoogle = await startTestServer({ env: { ADMIN_PASSWORD: PASSWORD, GOOGLE_PLACES_API_KEY: GOOGLE_KEY } });
    without = await startTestServer({ env: { ADMIN_PASSWORD: PASSWORD } });
  });
  afterAll(async () => {
    await withGoogle.close();
    await without.close();
  });

  it('says which key is configured, never its value, on the stored and the refreshed answer', async () => {
    for (const [path, method] of [['/api/admin/health', 'GET'], ['/api/admin/health/refresh', 'POST']] as const) {
      const text = await adminGet(withGoogle, path, method);
      expect(text).not.toContain(GOOGLE_KEY);
      const health = adminHealthSchema.parse(JSON.parse(text));
      expect(health.analysisData?.map((d) => [d.key, d.configured])).toEqual([
        ['GOOGLE_PLACES_API_KEY', true],
        ['YELP_API_KEY', false],
      ]);
    }
    const none = adminHealthSchema.parse(JSON.parse(await adminGet(without, '/api/admin/health')));
    expect(none.analysisData?.every((d) => !d.configured)).toBe(true);
  });
});
