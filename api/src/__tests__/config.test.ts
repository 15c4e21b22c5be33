import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe(path.resolve(process.cwd(), 'data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicOrigin).toBe('http://localhost:3000');
    expect(config.logLevel).toBe('info');
    expect(config.bodyLimit).toBe(100 * 1024);
    expect(config.remoteUrls).toEqual({});
    expect(config.trustProxy).toBe(false);
    expect(config.trustProxyHops).toBe(1);
    expect([config.headersTimeoutMs, config.requestTimeoutMs, config.bodyIdleTimeoutMs]).toEqual([20_000, 30_000, 15_000]);
    // Outgoing webhooks go to public addresses only unless the operator says otherwise.
    expect(config.webhookAllowPrivateTargets).toBe(false);
  });

  it('reads WEBHOOK_ALLOW_PRIVATE_TARGETS as a switch and refuses anything else', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).webhookAllowPrivateTargets).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes please' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS: Must be true or false/);
  });

  it('reads the proxy hop count and the slow-client timeouts as durations, and refuses nonsense', () => {
    const config = loadConfig({ TRUST_PROXY_HOPS: '2', HEADERS_TIMEOUT: '500ms', REQUEST_TIMEOUT: '1m', BODY_IDLE_TIMEOUT: '2500' });
    expect([config.trustProxyHops, config.headersTimeoutMs, config.requestTimeoutMs, config.bodyIdleTimeoutMs]).toEqual([2, 500, 60_000, 2500]);
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '0', BODY_IDLE_TIMEOUT: 'soon' })).toThrow(/TRUST_PROXY_HOPS[\s\S]*BODY_IDLE_TIMEOUT: Must be a duration/);
    expect(() => loadConfig({ HEADERS_TIMEOUT: '40s', REQUEST_TIMEOUT: '30s' })).toThrow(/HEADERS_TIMEOUT: Must not be longer than REQUEST_TIMEOUT/);
  });

  it('finds the repository root as the default SITE_ROOT', () => {
    const { siteRoot } = loadConfig({});
    expect(existsSync(path.join(siteRoot, 'pnpm-workspace.yaml'))).toBe(true);
    expect(existsSync(path.join(siteRoot, 'api', 'package.json'))).toBe(true);
  });

  it('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/site',
      DATABASE_URL: 'postgres://u@db:5432/site',
      PUBLIC_ORIGIN: 'https://www.example.com/',
      ADMIN_PASSWORD: 'pw',
      WEBHOOK_SECRET: 'whsec',
      REMOTE_BLOG_URL: 'https://cdn.example.com/blog/remoteEntry.js',
      LOG_LEVEL: 'silent',
      SITE_ROOT: '/srv/site',
      BODY_LIMIT: '1mb',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/site',
      databaseUrl: 'postgres://u@db:5432/site',
      publicOrigin: 'https://www.example.com',
      adminPassword: 'pw',
      webhookSecret: 'whsec',
      remoteUrls: { blog: 'https://cdn.example.com/blog/remoteEntry.js' },
      logLevel: 'silent',
      siteRoot: '/srv/site',
      bodyLimit: 1024 * 1024,
      trustProxy: true,
    });
  });

  it('reads which routes each app owns and the release limits (issue 51), and refuses a pattern of the server or of two apps', () => {
    const defaults = loadConfig({}).releasePolicy!;
    expect(defaults.appRoutes.blog).toEqual(['/blog*']);
    expect(defaults.limits).toEqual({ maxRoutes: 200, maxPages: 200, maxManifestBytes: 256 * 1024 });
    const set = loadConfig({ APP_ROUTES_BLOG: '/blog*, /journal/*', RELEASE_MAX_ROUTES: '50', RELEASE_MAX_PAGES: '10', RELEASE_MAX_MANIFEST_KB: '64' }).releasePolicy!;
    expect(set.appRoutes.blog).toEqual(['/blog*', '/journal/*']);
    expect(set.appRoutes.admin).toEqual(['/admin*']);
    expect(set.owners).toContainEqual({ owner: 'blog', pattern: '/journal/*' });
    expect(set.limits).toEqual({ maxRoutes: 50, maxPages: 10, maxManifestBytes: 64 * 1024 });
    expect(() => loadConfig({ APP_ROUTES_BLOG: '/blog?x' })).toThrow(/APP_ROUTES_BLOG: "\/blog\?x" is not an ownership pattern/);
    expect(() => loadConfig({ APP_ROUTES_MARKETING: '/api/pages/*' })).toThrow(/APP_ROUTES_MARKETING: "\/api\/pages\/\*" is the server's/);
    expect(() => loadConfig({ APP_ROUTES_BLOG: '/admin*' })).toThrow(/APP_ROUTES: Two APP_ROUTES_<APP> name the same pattern/);
    expect(() => loadConfig({ RELEASE_MAX_ROUTES: '0' })).toThrow(/RELEASE_MAX_ROUTES: Must be at least 1/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });

  it('lists every invalid variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db/site',
        PUBLIC_ORIGIN: 'not a url',
        REMOTE_BLOG_URL: 'ftp://files.example.com/remoteEntry.js',
        LOG_LEVEL: 'loud',
        BODY_LIMIT: 'lots',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    const named = problems.map((p) => p.split(':')[0]);
    expect(named.sort()).toEqual(['BODY_LIMIT', 'DATABASE_URL', 'LOG_LEVEL', 'PORT', 'PUBLIC_ORIGIN', 'REMOTE_BLOG_URL']);
    for (const name of named) expect(message).toContain(name);
  });
});
