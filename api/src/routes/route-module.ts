import type Router from '@koa/router';
import type { Context, DefaultState } from 'koa';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { RateLimitStore } from '../middleware/rate-limit';
import type { Services } from '../services/services';
import type { RemoteRegistry } from '../site/remote-registry';

export type ApiRouter = Router<DefaultState, Context>;

/** What a route file may use. Routes call services; they never see the database. */
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
}

/** One file per resource under `routes/` exports one of these, registering its full `/api/...` paths. */
export type RouteModule = (router: ApiRouter, context: RouteContext) => void;
