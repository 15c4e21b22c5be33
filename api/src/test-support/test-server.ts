import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AppDeps, AppInstance } from '../app';
import { loadConfig, type Config } from '../config';
import type { ApiRouter } from '../http/route-module';
import { startServer, type RunningServer } from '../server-lifecycle';
import type { AnalysisEngineOverrides } from '../services';

/** Extra API routes of a test (one that fails or is slow on purpose), registered beside the app's own. */
export type TestRoutes = (router: ApiRouter) => void;

/**
 * For tests of a site whose remotes are served from their built dist in place (RELEASE_IMPORT_BUILDS=off), that change
 * what is served by writing into it. The default, a build imported as a release on the first start and changed only
 * by a deploy, has tests of its own (site/releases/__tests__/import-builds.test.ts).
 */
export const SERVE_BUILDS_IN_PLACE = { RELEASE_IMPORT_BUILDS: 'off' } as const;

/**
 * The analysis engine's options (`deps.analysis`) with a website fetcher that also reads sites on 127.0.0.1, on any
 * port: the test's own local site. Private networks stay refused.
 */
export function readingLoopbackSites(analysis: AnalysisEngineOverrides = {}): AnalysisEngineOverrides {
  return { ...analysis, website: { ...analysis.website, testOnlyAllowLoopback: true } };
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  config: Config;
  running: RunningServer;
  instance: AppInstance;
  dataDir: string;
  /** Stops the app, then removes its data folder and the PostgreSQL schema it was given (deps.database.pgSchema). */
  close(): Promise<void>;
}

/**
 * Starts the real app on an ephemeral loopback port with a fresh SQLite file in a temp DATA_DIR.
 * `siteRoot` defaults to an empty directory (no shell, no remotes) so tests never depend on builds.
 */
export async function startTestServer(
  options: { env?: Record<string, string | undefined>; deps?: AppDeps; siteRoot?: string; routes?: readonly TestRoutes[] } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'api-test-data-'));
  const emptySite = options.siteRoot ? undefined : await mkdtemp(path.join(tmpdir(), 'api-test-site-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SITE_ROOT: options.siteRoot ?? emptySite,
    PUBLIC_ORIGIN: 'https://example.test',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const running = await startServer(config, options.deps);
  // The router dispatches on its routes at request time (the API 404/405 too), so these answer from the first request.
  for (const register of options.routes ?? []) register(running.instance.router);
  return {
    url: `http://127.0.0.1:${running.port}`,
    config,
    running,
    instance: running.instance,
    dataDir,
    async close() {
      await running.close();
      // The PostgreSQL schema the test gave the app (deps.database.pgSchema) goes with it, once the app has stopped: a
      // DROP while its background work (outboxes, counters) still writes can deadlock with it.
      const pgSchema = options.deps?.database?.pgSchema;
      if (pgSchema && config.databaseUrl) {
        const admin = new pg.Client({ connectionString: config.databaseUrl });
        await admin.connect();
        try {
          await admin.query(`drop schema if exists "${pgSchema.replaceAll('"', '""')}" cascade`);
        } finally {
          await admin.end();
        }
      }
      await rm(dataDir, { recursive: true, force: true });
      if (emptySite) await rm(emptySite, { recursive: true, force: true });
    },
  };
}

/** One raw HTTP/1.1 request whose path is sent exactly as given (fetch would normalise `..`). */
export async function rawRequest(
  url: string,
  requestPath: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { request } = await import('node:http');
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: requestPath, method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
