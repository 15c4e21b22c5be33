import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/** The CSP's sources for one directive. */
const sources = (policy: string, directive: string) =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === directive)
    ?.slice(1) ?? [];

describe('the API reference page (GET /api/docs)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers HTML under the site\'s own CSP: no inline or evaluated script, no outside host', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    // Every script is a file of this site: no inline one for the CSP to need a hash or 'unsafe-inline' for.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).toContain('<script src="/api/docs/assets/swagger-ui-bundle.js">');
    expect(html).not.toMatch(/https?:\/\//);
    const policy = res.headers.get('content-security-policy')!;
    // The same policy as any other answer of the site: the page weakens nothing.
    expect(policy).toBe((await fetch(`${server.url}/api/health`)).headers.get('content-security-policy'));
    const scripts = sources(policy, 'script-src');
    expect(scripts).toContain("'self'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts.filter((s) => /^https?:|^\*/.test(s))).toEqual([]);
    expect(sources(policy, 'connect-src')).toEqual(["'self'"]);
  });

  it('serves every file the page loads, cached like the site\'s other static files, with 304 for a client that has it', async () => {
    const html = await (await fetch(`${server.url}/api/docs`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(['/api/docs/assets/swagger-ui.css', '/api/docs/assets/swagger-ui-bundle.js', '/api/docs/assets/api-docs.js']);
    for (const asset of assets) {
      const res = await fetch(`${server.url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const body = await res.text();
      expect(body.length).toBeGreaterThan(asset.endsWith('api-docs.js') ? 50 : 10_000);
      const again = await fetch(`${server.url}${asset}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // The setup points the renderer at this server's document and at no outside validator.
    const setup = await (await fetch(`${server.url}/api/docs/assets/api-docs.js`)).text();
    expect(setup).toContain("url: '/api/openapi.json'");
    expect(setup).toContain('validatorUrl: null');
    expect((await fetch(`${server.url}/api/docs/assets/index.html`)).status).toBe(400);
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    expect(doc.paths['/api/docs']?.get?.summary).toBe('This document, as a readable page');
    expect(doc.paths['/api/docs/assets/{asset}']?.get).toBeDefined();
  });
});
