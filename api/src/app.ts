import Router from '@koa/router';
import Koa from 'koa';
import type { Kysely } from 'kysely';
import { ownerOfPath } from '@site/contracts/route-ownership';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import type { Database } from './db/schema';
import type { JobRunner } from './lib/job-runner';
import type { Logger } from './lib/logger';
import type { AppMetrics } from './lib/metrics';
import { apiFallback } from './middleware/api-fallback';
import { compress } from './middleware/compress';
import { errors } from './middleware/errors';
import { etags } from './middleware/etag';
import { httpMetrics, metricsEndpoint } from './middleware/http-metrics';
import { requestBodyLimits } from './middleware/json-body';
import { observeRequests } from './middleware/observe-requests';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { sessionToken } from './middleware/require-admin';
import { securityHeaders } from './middleware/security-headers';
import { traceRequests } from './middleware/trace-request';
import { contactFailureAnswer } from './contact/contact-routes';
import { API_ENDPOINTS, API_ROUTES } from './http/api-routes';
import { largeBodyLimits } from './http/endpoint';
import type { ApiRouter, RouteContext } from './http/route-module';
import type { Services } from './services';
import { devOverrideLinks } from './site/render/dev-override';
import { releasePolicy } from './site/releases/release-format';
import { pageTokenIssuer, site } from './site/site-handler';
import { createContainer, type AppDeps } from './container';

export type { AppDeps };

export interface AppInstance {
  /** The Koa application; `app.callback()` is the request handler. Nothing listens yet. */
  app: Koa;
  db: Kysely<Database>;
  database: DatabaseHandle;
  services: Services;
  logger: Logger;
  /** The API router (tests walk its routes). */
  router: ApiRouter;
  /** The background-work runner and its job kinds (lib/job-runner.ts). */
  jobs: JobRunner;
  /** The Prometheus metrics (METRICS_TOKEN set); undefined without. */
  metrics: AppMetrics | undefined;
  /** Sends the spans still batched (OTEL_EXPORTER_OTLP_ENDPOINT set); resolves at once without tracing. */
  flushTraces(): Promise<void>;
  /**
   * Stops taking new work while requests in flight finish (graceful shutdown): `/api/health/ready` answers 503 and
   * the contact outbox takes no more mails (pending ones stay for another instance or the next start). Idempotent.
   */
  drain(): void;
  /** Closes what the container opened (container.ts), in reverse order: jobs first, the database and tracing last. Call after the HTTP server has stopped. */
  close(): Promise<void>;
}

/**
 * Builds the whole application without listening: the container (container.ts) opens the database, runs migrations and
 * builds everything else; this composes the middleware chain
 * request log -> errors -> security headers -> API routes -> API 404/405 -> site.
 */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<AppInstance> {
  const built = await createContainer(config, deps);
  const { logger, clock, services, remotes, rateLimits, renderCache, metrics, tracing, jobs, database, shell, devOverrides, visitorTokens, chooseReleases } = built;

  // The links' confirmation, and the admin kept out of overrides: its pages (the admin app's routes) and its session.
  const adminRoutes = (config.releasePolicy ?? releasePolicy()).owners;
  const devOverrideSite = devOverrideLinks({
    tokens: devOverrides,
    publicOrigin: config.publicOrigin,
    logger,
    admin: {
      ownsPage: (path) => ownerOfPath(adminRoutes, path) === 'admin',
      liveSession: async (ctx) => Boolean(await services.admin.auth.authenticate(sessionToken(ctx))),
    },
  });

  const router: ApiRouter = new Router();
  let draining = false;
  const routeContext: RouteContext = {
    config,
    logger,
    clock,
    services,
    remotes,
    rateLimits,
    lifecycle: { draining: () => draining },
    ...(config.renderCacheBytes ? { documents: renderCache } : {}),
    // GET /page-token.json (events-routes.ts): each page load's signed token, naming this browser's releases.
    pageTokens: pageTokenIssuer({ remotes, chooseReleases, devOverrides: devOverrideSite, tokens: visitorTokens }),
    devOverrides: { link: built.devOverrideLink, loopbackOnly: built.signingOn },
  };
  for (const register of API_ROUTES) register(router, routeContext);

  // Behind a proxy, the client is the address the last `trustProxyHops` proxies appended (rightmost), not the leftmost
  // X-Forwarded-For entry, which the client can write itself.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  // Errors after the answer has started (a static file stream failing) arrive here, not in `errors`.
  app.on('error', (err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    // A visitor closing the tab mid-download is not a server fault.
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE') {
      logger.debug({ err }, 'client went away during the response');
      return;
    }
    logger.error({ err }, 'response failed after it had started');
  });

  // First: the request's id (X-Request-Id on every answer, on every log line of the request), then its span and count.
  app.use(requestId({ logger, trustProxy: config.trustProxy }));
  if (tracing) app.use(traceRequests({ trustProxy: config.trustProxy }));
  if (metrics) app.use(httpMetrics({ metrics }));
  app.use(requestLog({ logger }));
  // Outside the error handler, so it sees final statuses: the admin's traffic table and webhook-reject alerts.
  app.use(observeRequests({ onAnswered: (request) => services.admin.requestAnswered(request) }));
  // Outside the error handler, so it sees every failed contact answer (even the 413 before routing): spec fields added.
  app.use(contactFailureAnswer());
  app.use(errors({ logger, onServerError: (info) => services.admin.serverError(info), onStorageFailure: (failure) => services.disk.failed(failure) }));
  app.use(compress());
  // Validators for reads made in memory, on the body before compression (middleware/etag.ts).
  app.use(etags());
  app.use(
    securityHeaders({
      inlineScriptHashes: () => shell.scriptHashes(),
      remoteOrigins: [...new Set(Object.values(config.remoteUrls).map((url) => new URL(url).origin))],
    }),
  );
  app.use(
    requestBodyLimits({
      limit: config.bodyLimit,
      idleTimeoutMs: config.bodyIdleTimeoutMs,
      // Uploads (images up to 10 MB): the routes that read a body bigger than BODY_LIMIT (streamed to disk, counted as it comes).
      exceptions: largeBodyLimits(API_ENDPOINTS),
    }),
  );
  if (metrics && config.metricsToken) app.use(metricsEndpoint({ metrics, token: config.metricsToken }));
  app.use(router.routes());
  app.use(apiFallback({ router }));
  app.use(
    site({
      publicOrigin: config.publicOrigin,
      shell,
      remotes,
      loaders: built.routeDataLoaders,
      composer: built.composer,
      logger,
      ...(config.renderCacheBytes ? { cache: renderCache } : {}),
      // A browser with a preview link's cookie gets the staged release it previews (site/releases/release-choice.ts).
      chooseReleases,
      previews: built.previews,
      devOverrides: devOverrideSite,
      // Every page of a remote and every failed server render, against the release that served it (release-errors/).
      ...(config.releaseErrorCounting !== false ? { releaseCounts: services.releaseErrors } : {}),
    }),
  );

  return {
    app,
    db: database.db,
    database,
    services,
    logger,
    router,
    jobs,
    metrics,
    flushTraces: () => tracing?.flush() ?? Promise.resolve(),
    drain() {
      if (draining) return;
      draining = true;
      // No new background run (mails and deliveries due stay for another instance or the next start).
      void jobs.stop();
    },
    close: async () => {
      draining = true;
      await built.close();
    },
  };
}
