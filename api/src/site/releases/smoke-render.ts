/*
 * The smoke render (issue 51): before a release is stored as servable, staged or not, the server renders every page
 * it declares, with the site's real data, as a visitor would get it. A page whose render throws, or a release that
 * does not render within the deadline, is refused with the page and the error's first line: visitors never get a
 * release that fails on every render.
 *
 * The render runs on a worker thread (smoke-render-worker.ts), one at a time per process: a page that loops holds that
 * thread only, the server keeps answering, and the worker is ended at the deadline. The worker loads the candidate's
 * server code itself (its module-level code runs there first, under the same deadline); the main thread picks the
 * pages from the manifest and the module's routes and loads their data with the server's own loaders, which the
 * worker cannot reach, while the deadline waits.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MfeManifest, RemotesMap } from '@site/contracts/manifest';
import { bestRouteMatch, fillRoutePattern, matchRoutePattern } from '@site/contracts/route-match';
import { bundleWorker } from '../../lib/bundle-worker';
import { RefusedError } from '../../lib/domain-errors';
import type { Logger } from '../../lib/logger';
import { currentReleasePolicy } from './release-policy';
import { currentShell, type AppName } from './release-format';
import type { SmokeMainMessage, SmokePage, SmokeWorkerInput, SmokeWorkerMessage } from './smoke-render-worker';

/** How long one release's smoke render may take, its module's loading included (RELEASE_SMOKE_RENDER_TIMEOUT_MS). */
export const DEFAULT_SMOKE_RENDER_DEADLINE_MS = 10_000;
/** The worker's heap: a page that allocates without end is stopped here, not by the server's own heap. */
const WORKER_HEAP_MB = 512;
/** A param no data source gives a real value for: the page renders its not-found state, as for a visitor's bad link. */
const PLACEHOLDER_PARAM = 'smoke-render-example';
/** A path of the shell's own not-found page (no app owns it). */
const SHELL_NOT_FOUND = '/smoke-render-not-found';

/** A release whose page does not render: 400 `smoke_render_failed`, naming the page and the error's first line. */
export class SmokeRenderRefusedError extends RefusedError {
  constructor(message: string) {
    super(message, { code: 'smoke_render_failed' });
  }
}

/** The site's data, as the server loads it for a page (route-data.ts): what the smoke render renders with. */
export interface SmokeRenderData {
  /** The route's data for its param (`loaded: false` for a source the server has no loader for). */
  load(source: string, param: string | undefined): Promise<{ loaded: false } | { loaded: true; data: unknown }>;
  /** A real value of a route's `param` whose data is `source` (a published post's slug), or undefined when there is none. */
  example(source: string, param: string): Promise<string | undefined>;
}

export interface SmokeRenderReport {
  /** Each page rendered and how long it took (its render and the shell's around it). */
  pages: Array<{ url: string; ms: number }>;
  /** From the worker's start to the last page: loading the shell and the module included. */
  totalMs: number;
}

export interface SmokeRenderer {
  /**
   * Renders the pages of the release of `app` in `dir` (a remote's: `manifest`, with the version it is deployed as).
   * Throws SmokeRenderRefusedError when a page throws or the deadline passes. Null when nothing of it renders on the
   * server (no server entry, or its module does not load: the deployer's load check names why).
   */
  render(candidate: { app: AppName; dir: string; manifest?: MfeManifest; siteRoot: string; served: readonly MfeManifest[] }): Promise<SmokeRenderReport | null>;
}

type Source = { kind: 'file'; url: URL } | { kind: 'code'; code: string };
let bundled: Promise<Source> | undefined;

/**
 * Beside the running file in a build (dist/server.js and dist/release-deployer.js → dist/smoke-render-worker.js);
 * from the TypeScript sources (vitest), bundled once, esbuild left to the package (it cannot be bundled).
 */
function workerSource(): Promise<Source> {
  const built = new URL('./smoke-render-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return Promise.resolve({ kind: 'file', url: built });
  bundled ??= bundleWorker(new URL('./smoke-render-worker.ts', import.meta.url), { esbuild: createRequire(import.meta.url).resolve('esbuild') }).then((code) => ({ kind: 'code', code }));
  return bundled;
}

/** One smoke render at a time in this process: a burst of deploys waits its turn rather than taking every core. */
let turn: Promise<unknown> = Promise.resolve();

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function createSmokeRenderer(options: { deadlineMs?: number; data?: () => SmokeRenderData | undefined; logger?: Logger } = {}): SmokeRenderer {
  const deadlineMs = options.deadlineMs ?? DEFAULT_SMOKE_RENDER_DEADLINE_MS;

  return {
    async render(candidate) {
      const { app, dir, manifest } = candidate;
      // A remote without a server entry renders in the browser alone: nothing of it runs on the server.
      if (app !== 'shell' && !manifest?.server?.entry) return null;
      const shellEntry = app === 'shell' ? path.join(dir, 'server', 'entry.js') : path.join((await currentShell(candidate.siteRoot)).dir, 'server', 'entry.js');
      if (app === 'shell' && !existsSync(shellEntry)) return null;
      const input: SmokeWorkerInput = {
        kind: app === 'shell' ? 'shell' : 'remote',
        dir,
        ...(manifest ? { manifest } : {}),
        shellEntry: existsSync(shellEntry) ? shellEntry : null,
        remotes: remotesMap(candidate.served, app === 'shell' ? undefined : manifest),
        deadlineMs,
      };
      const run = turn.then(() => renderIn(input));
      turn = run.catch(() => undefined);
      const report = await run;
      if (report) {
        const pages = Object.fromEntries(report.pages.map((p) => [p.url, Math.round(p.ms)]));
        options.logger?.info({ app, version: manifest?.version, pages, totalMs: Math.round(report.totalMs) }, `${app} smoke render: ${report.pages.length} pages in ${Math.round(report.totalMs)} ms`);
      }
      return report;
    },
  };

  async function renderIn(input: SmokeWorkerInput): Promise<SmokeRenderReport | null> {
    const source = await workerSource();
    const limits = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
    const worker = source.kind === 'file' ? new Worker(source.url, { ...limits, workerData: input }) : new Worker(source.code, { ...limits, eval: true, workerData: input });
    const what = input.kind === 'shell' ? 'the shell' : `${input.manifest!.name} ${input.manifest!.version}`;
    const started = performance.now();
    // The deadline counts the worker's time only: it waits while this thread loads the pages' data.
    let left = deadlineMs;
    let since = started;
    let timer: NodeJS.Timeout | undefined;
    let current: string | undefined;
    const pages: SmokeRenderReport['pages'] = [];

    try {
      return await new Promise<SmokeRenderReport | null>((resolve, reject) => {
        const refuse = (reason: string) => reject(new SmokeRenderRefusedError(`smoke render of ${current ?? what} failed: ${reason}`));
        const arm = () => {
          since = performance.now();
          timer = setTimeout(() => refuse(`it did not render in ${seconds(deadlineMs)}${current ? '' : ' (its server code did not finish loading)'}`), left);
        };
        const pause = () => {
          clearTimeout(timer);
          left -= performance.now() - since;
        };
        worker.on('message', (message: SmokeWorkerMessage) => {
          switch (message.type) {
            case 'load-failed':
              // Not the smoke render's to judge: the deployer's load check refuses it, in its own words.
              return resolve(null);
            case 'ready':
              if (!message.rendersOnServer) return resolve(null);
              pause();
              pagesOf(input, message.routes).then(
                (planned) => {
                  arm();
                  worker.postMessage({ type: 'pages', pages: planned } satisfies SmokeMainMessage);
                },
                (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
              );
              return;
            case 'page':
              current = message.url;
              return;
            case 'rendered':
              pages.push({ url: message.url, ms: message.ms });
              return;
            case 'failed':
              if (message.url) current = message.url;
              return refuse(message.error);
            case 'done':
              return resolve({ pages, totalMs: performance.now() - started });
          }
        });
        worker.on('error', (error: Error & { code?: string }) => refuse(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (${WORKER_HEAP_MB} MB)` : `${error.name}: ${error.message.split('\n')[0]}`));
        worker.on('exit', (code) => refuse(`its code ended the render (exit code ${code})`));
        arm();
      });
    } finally {
      clearTimeout(timer);
      await worker.terminate();
    }
  }

  /**
   * The pages a release declares, each once: its manifest's routes (a `:param` filled with a real value from the site's
   * data where the route's data names one, a trailing `*` left out) and pages, with their data as the server loads it.
   * A shell renders its own pages: the home page's chrome (the remote's area left to the browser) and its not-found page.
   */
  async function pagesOf(input: SmokeWorkerInput, routes: Array<{ path: string; data?: { source: string; param?: string }; head: boolean }>): Promise<SmokePage[]> {
    if (input.kind === 'shell') return [{ url: '/', status: 200 }, { url: SHELL_NOT_FOUND, status: 404 }];
    const manifest = input.manifest!;
    const data = options.data?.();
    const urls = new Set<string>();
    for (const pattern of manifest.routes) {
      const base = pattern.replace(/\/?\*$/, '') || '/';
      const def = routes.find((r) => r.path === pattern);
      const params: Record<string, string> = {};
      for (const [, name] of base.matchAll(/\/:([\w-]+)/g)) {
        const real = def?.data?.param === name && data ? await data.example(def.data.source, name) : undefined;
        params[name!] = real ?? PLACEHOLDER_PARAM;
      }
      urls.add(fillRoutePattern(base, params as never));
    }
    for (const page of manifest.pages ?? []) urls.add(page.path);

    const pages: SmokePage[] = [];
    for (const url of urls) {
      const match = bestRouteMatch(
        routes.map((r) => r.path),
        url,
      );
      const def = match ? routes.find((r) => r.path === match.pattern) : undefined;
      let page: SmokePage = { url, status: 200 };
      if (def?.data && match && data) {
        const param = def.data.param === undefined ? undefined : match.params[def.data.param];
        const loaded = def.data.param !== undefined && param === undefined ? { loaded: false as const } : await data.load(def.data.source, param);
        const declared = manifest.pages?.some((p) => matchRoutePattern(p.path, url) !== null);
        // As resolveHead and compose-page decide it: no data for a route with a head (and no static page) is a 404.
        if (loaded.loaded && loaded.data === undefined && def.head && !declared) page = { url, status: 404 };
        else if (loaded.loaded && loaded.data !== undefined) page = { url, status: 200, source: def.data.source, data: loaded.data };
      }
      pages.push(page);
    }
    return pages;
  }
}

/** `/remotes.json` as it would be with the candidate served: the served remotes, the candidate in its app's place. */
function remotesMap(served: readonly MfeManifest[], candidate: MfeManifest | undefined): Partial<RemotesMap> {
  const owns = currentReleasePolicy().appRoutes;
  const map: Partial<RemotesMap> = {};
  for (const manifest of [...served.filter((m) => m.name !== candidate?.name), ...(candidate ? [candidate] : [])]) {
    map[manifest.name] = { entry: `/mfe/${manifest.name}/assets/remoteEntry.js`, version: manifest.version, routes: manifest.routes, owns: [...owns[manifest.name]] };
  }
  return map;
}
