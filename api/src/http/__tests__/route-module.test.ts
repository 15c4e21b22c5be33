import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { defineRoutes, type ApiRouter, type DefinedRouteModule, type RouteContext } from '../route-module';

/** Every route file's module: each one declares what it uses, and this is the whole of what it can reach. */
const EXPECTED_NEEDS: Record<string, DefinedRouteModule['needs']> = {
  adminAuthRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['admin'], context: [] },
  adminLeadsRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['admin'], context: ['clock', 'logger'] },
  adminMonitoringRoutes: { config: ['bodyLimit', 'publicOrigin', 'googlePlacesApiKey', 'yelpApiKey'], services: ['admin'], context: [] },
  adminPostsRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['posts', 'scheduler', 'admin'], context: [] },
  adminMediaRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['media', 'admin'], context: [] },
  mediaRoutes: { config: [], services: ['media'], context: [] },
  adminWebhooksRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['webhooksOut', 'admin'], context: [] },
  analysisRoutes: { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['analysis'], context: ['rateLimits'] },
  blogFeedsRoutes: { config: ['publicOrigin', 'sitemapUrlsPerFile'], services: ['posts', 'media'], context: ['remotes', 'documents'] },
  contactRoutes: { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['contact'], context: ['rateLimits', 'logger'] },
  eventsRoutes: { config: ['bodyLimit', 'publicOrigin', 'rateLimitMultiplier'], services: ['events'], context: ['rateLimits', 'pageTokens'] },
  healthRoutes: { config: [], services: ['health', 'admin'], context: ['lifecycle'] },
  openApiRoutes: { config: ['publicOrigin', 'metricsToken'], services: [], context: [] },
  apiDocsRoutes: { config: [], services: [], context: [] },
  postsRoutes: { config: ['rateLimitMultiplier'], services: ['posts'], context: ['rateLimits'] },
  webhookRoutes: { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['webhook'], context: ['rateLimits'] },
  adminDeploysRoutes: { config: ['bodyLimit', 'publicOrigin'], services: ['deployTokens', 'deployLog', 'admin', 'releases', 'canaries'], context: [] },
  releasesRoutes: { config: ['rateLimitMultiplier', 'bodyLimit'], services: ['deployTokens', 'releases', 'deployLog', 'canaries'], context: ['rateLimits', 'devOverrides'] },
  siteDeployRoutes: { config: [], services: [], context: ['logger'] },
  adminReleaseErrorsRoutes: { config: [], services: ['releaseErrors', 'admin'], context: [] },
};

/** A whole context whose every part is a marker, to see which ones a module is handed. */
function fullContext(): RouteContext {
  const config = { publicOrigin: 'https://example.test', bodyLimit: 1000, adminPassword: 'secret', webhookSecret: 'hook', smtpUrl: 'smtp://x' };
  const services = { posts: { name: 'posts' }, admin: { name: 'admin' }, webhook: { name: 'webhook' }, contact: { name: 'contact' } };
  return {
    config: config as unknown as Config,
    services: services as unknown as RouteContext['services'],
    logger: { name: 'logger' } as unknown as RouteContext['logger'],
    clock: () => new Date(0),
    remotes: { name: 'remotes' } as unknown as RouteContext['remotes'],
    rateLimits: {},
    lifecycle: { draining: () => false },
  };
}

const router = {} as ApiRouter;

describe('defineRoutes', () => {
  it('hands a route module only the config fields, services and context parts it declared', () => {
    let seen: unknown;
    const module = defineRoutes({ config: ['publicOrigin'], services: ['posts'], context: ['clock'] }, (_router, deps) => {
      seen = deps;
      // Declared: typed and present.
      expect(deps.config.publicOrigin).toBe('https://example.test');
      // @ts-expect-error -- not declared: a route cannot read the admin password (or any other field) it did not name.
      expect(deps.config.adminPassword).toBeUndefined();
      // @ts-expect-error -- nor call a service it did not name.
      expect(deps.services.webhook).toBeUndefined();
      // @ts-expect-error -- nor reach the logger.
      expect(deps.logger).toBeUndefined();
    });
    const context = fullContext();
    module(router, context);
    expect(seen).toEqual({ config: { publicOrigin: 'https://example.test' }, services: { posts: { name: 'posts' } }, clock: context.clock });
    expect(module.needs).toEqual({ config: ['publicOrigin'], services: ['posts'], context: ['clock'] });
  });

  it('gives a module that declares nothing empty config and services', () => {
    let seen: unknown;
    defineRoutes({}, (_router, deps) => {
      seen = deps;
    })(router, fullContext());
    expect(seen).toEqual({ config: {}, services: {} });
  });
});

describe('the API route files', () => {
  it('each build their module with defineRoutes, declaring exactly what they use', async () => {
    // Every `*-routes.ts` of every area (and http/'s own), wherever it lives under api/src.
    const src = new URL('../../', import.meta.url);
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('-routes.ts') && !f.includes('__tests__'));
    expect(files.length).toBeGreaterThan(10);
    const found: Record<string, unknown> = {};
    for (const file of files) {
      const exports = (await import(new URL(file, src).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (name.endsWith('Routes') && typeof value === 'function') found[name] = (value as Partial<DefinedRouteModule>).needs ?? 'not defined with defineRoutes';
      }
    }
    expect(found).toEqual(EXPECTED_NEEDS);
  });
});
