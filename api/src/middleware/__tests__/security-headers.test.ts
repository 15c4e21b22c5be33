import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFixture, INLINE_SCRIPT_HASH, type SiteFixture } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

function expectSecurityHeaders(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain(`default-src 'self'`);
  expect(csp).toContain(`object-src 'none'`);
  expect(csp).toContain(`base-uri 'none'`);
  expect(csp).toContain(`frame-ancestors 'none'`);
  expect(csp).toContain(`form-action 'self'`);
  const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc).toContain(INLINE_SCRIPT_HASH);
  expect(csp).not.toContain('unsafe-eval');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('permissions-policy')).toContain('camera=()');
  return csp;
}

describe('security headers', () => {
  let site: SiteFixture;
  let server: TestServer;
  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  it.each([
    ['an API answer', '/api/health', 200],
    ['an API error', '/api/nothing', 404],
    ['an HTML page', '/', 200],
    ['a not-found page', '/no-such-page', 404],
    ['a static file', '/mfe/blog/assets/remoteEntry.js', 200],
    ['/remotes.json', '/remotes.json', 200],
  ])('are on %s', async (_label, path, status) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('follows the shell page: a changed inline script changes the hash', async () => {
    await site.writeFile('shell/dist/index.html', '<html><head><script>alert("new")</script></head></html>');
    const response = await fetch(`${server.url}/api/health`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).not.toContain(INLINE_SCRIPT_HASH);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
  });
});

describe('security headers behind a proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true', REMOTE_BLOG_URL: 'https://cdn.example.com/blog/assets/remoteEntry.js' },
    });
  });
  afterAll(() => server.close());

  it('sends HSTS only for https requests', async () => {
    const viaHttps = await fetch(`${server.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaHttps.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const plain = await fetch(`${server.url}/api/health`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('allows scripts and requests to a remote served from another origin', async () => {
    const csp = (await fetch(`${server.url}/api/health`)).headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src [^;]*https:\/\/cdn\.example\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/cdn\.example\.com/);
  });
});
