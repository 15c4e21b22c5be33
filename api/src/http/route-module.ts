import type Router from '@koa/router';
import type { Context, DefaultState } from 'koa';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { RateLimitStore } from '../middleware/rate-limit';
import type { Services } from '../services';
import type { RemoteRegistry } from '../site/releases/remote-registry';
import type { RenderCache } from '../site/render/render-cache';
import type { RemoteName } from '@site/contracts/manifest';

export type ApiRouter = Router<DefaultState, Context>;

/** Issues a page load's page-view token (`GET /page-token.json`): the site's part, which knows this browser's releases. */
export interface PageTokenIssuer {
  /** The token for this request's browser (its canary side, its preview); may set the bucket cookie on `ctx`. */
  issue(ctx: Context): Promise<string>;
}

/**
 * Everything the app can hand to its routes (app.ts builds it once). Routes call services; they never see the
 * database. No route file gets all of it: each declares the slice it uses (`defineRoutes`) and receives only that.
 */
export interface RouteContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  services: Services;
  remotes: RemoteRegistry;
  /** Where rate-limit counters live: this process, or Redis shared by every instance (REDIS_URL). */
  rateLimits: RateLimitStore;
  /** `draining()` is true once a graceful shutdown began (readiness answers 503). */
  lifecycle: { draining(): boolean };
  /**
   * The render cache when it is on (RENDER_CACHE_MB > 0): documents the API makes from public content (the feed, the
   * sitemaps) are kept there by the same tags as the pages, so a change drops them on every instance (cached-document.ts).
   */
  documents?: RenderCache;
  /** Page-view tokens (site-handler.ts' pageTokenIssuer); without it `/page-token.json` answers 404 and no browser report counts. */
  pageTokens?: PageTokenIssuer;
  /** Development override links (issue 52: POST /api/releases/{app}/dev-override); without it the route answers 404. */
  devOverrides?: DevOverrideLinks;
}

/** Makes a development override link of an app (app.ts: signed with PREVIEW_SECRET, on PUBLIC_ORIGIN). */
export interface DevOverrideLinks {
  link(app: RemoteName, entryUrl: string): Promise<{ url: string; expiresAt: Date }>;
  /** RELEASE_TRUSTED_KEYS is set: only an entry on the developer's computer (loopback) is accepted. */
  loopbackOnly: boolean;
}

/** The parts of the context besides config and services a route file may ask for. */
export type RouteContextKey = Exclude<keyof RouteContext, 'config' | 'services'>;

/** What one route file declares it uses: config fields, services, and other parts of the context, by name. */
export interface RouteNeeds<C extends keyof Config = never, S extends keyof Services = never, K extends RouteContextKey = never> {
  config?: readonly C[];
  services?: readonly S[];
  context?: readonly K[];
}

/** What a route file receives: exactly what it declared, no other config field, service or part of the context. */
export type RouteDeps<C extends keyof Config = never, S extends keyof Services = never, K extends RouteContextKey = never> = {
  config: Pick<Config, C>;
  services: Pick<Services, S>;
} & Pick<RouteContext, K>;

/**
 * One file per resource under `routes/` exports one of these, registering its full `/api/...` paths. app.ts calls
 * each with the whole RouteContext; a route file builds its module with `defineRoutes`, which passes it only its slice.
 */
export type RouteModule = (router: ApiRouter, context: RouteContext) => void;

/** A route module made by `defineRoutes`, with what it declared (a test lists what each route file can reach). */
export type DefinedRouteModule = RouteModule & { readonly needs: Readonly<Required<RouteNeeds<keyof Config, keyof Services, RouteContextKey>>> };

/**
 * A route module that gets only what it names: `needs` lists the config fields, services and other context parts
 * it uses; `register` receives an object holding those and nothing else (in its type and at run time), so a route
 * cannot read config or call services it did not declare.
 *
 *     export const postsRoutes = defineRoutes(
 *       { config: ['rateLimitMultiplier'], services: ['posts'], context: ['rateLimits'] },
 *       (router, { config, services, rateLimits }) => { ... },
 *     );
 */
export function defineRoutes<C extends keyof Config = never, S extends keyof Services = never, K extends RouteContextKey = never>(
  needs: RouteNeeds<C, S, K>,
  register: (router: ApiRouter, deps: RouteDeps<C, S, K>) => void,
): DefinedRouteModule {
  const declared = { config: [...(needs.config ?? [])], services: [...(needs.services ?? [])], context: [...(needs.context ?? [])] };
  const module: RouteModule = (router, context) => {
    const deps = {
      ...pick(context, declared.context),
      config: pick(context.config, declared.config),
      services: pick(context.services, declared.services),
    } as RouteDeps<C, S, K>;
    register(router, deps);
  };
  return Object.assign(module, { needs: declared });
}

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = from[key];
  return out;
}
