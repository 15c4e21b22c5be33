/*
 * The worker thread of smoke-render.ts: loads a candidate release's server code (a remote's module with the serving
 * shell's shared modules, or a shell's server entry) and renders the pages the main thread sends, as the server would
 * render them for a visitor. Its own event loop and heap: a page that loops or allocates without end holds this thread
 * alone, and the main thread ends it at the deadline. Built to dist/smoke-render-worker.js (build.mjs); from the
 * sources (tests) smoke-render.ts bundles it on first use.
 */
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { MfeManifest, RemotesMap } from '@site/contracts/manifest';
import type { RemoteServerModule, ServerArea, ShellServerEntry, SiteData } from '@site/contracts/server-render';
import { importRelease } from './release-format';

export interface SmokeWorkerInput {
  /** A remote's release (its module is loaded, its pages rendered in the shell) or a shell's (its own pages). */
  kind: 'remote' | 'shell';
  /** The candidate release's folder. */
  dir: string;
  /** A remote's manifest (with the version it is deployed as). */
  manifest?: MfeManifest;
  /** The shell server entry to render with: the serving shell's for a remote, the candidate's own for a shell; null: none. */
  shellEntry: string | null;
  /** The remotes map the pages are rendered with (the served remotes, the candidate in its place). */
  remotes: Partial<RemotesMap>;
  /** How long the whole render may take (the shell's React render is given what is left of it). */
  deadlineMs: number;
}

/** One page to render: its URL, the status the server would give it, and the route's data as the server loads it. */
export interface SmokePage {
  url: string;
  status: number;
  source?: string;
  data?: unknown;
}

export type SmokeWorkerMessage =
  /** Loaded: the module's routes (what the main thread needs to pick pages and load their data). */
  | { type: 'ready'; routes: Array<{ path: string; data?: { source: string; param?: string }; head: boolean }>; rendersOnServer: boolean }
  /** The release's server code did not load: the deployer's own load check says why, in its words. */
  | { type: 'load-failed'; reason: string }
  | { type: 'page'; url: string }
  | { type: 'rendered'; url: string; ms: number }
  | { type: 'failed'; url: string; error: string }
  | { type: 'done' };

export type SmokeMainMessage = { type: 'pages'; pages: SmokePage[] };

/** An error's first line, as the refusal names it (`TypeError: x is undefined`). */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

const post = (message: SmokeWorkerMessage) => parentPort!.postMessage(message);

async function main(input: SmokeWorkerInput): Promise<void> {
  const started = performance.now();
  let shell: ShellServerEntry | null = null;
  if (input.shellEntry) {
    try {
      const imported = (await import(/* @vite-ignore */ pathToFileURL(input.shellEntry).href)) as Partial<ShellServerEntry>;
      if (typeof imported.renderPage === 'function') shell = imported as ShellServerEntry;
      else if (input.kind === 'shell') return post({ type: 'load-failed', reason: 'it does not export renderPage()' });
    } catch (error) {
      // A candidate shell that does not load is refused by the deployer's own check; a serving shell that does not load
      // renders no page for anyone, so the remote's pages are rendered by its module alone.
      if (input.kind === 'shell') return post({ type: 'load-failed', reason: firstLine(error) });
    }
  }
  let module: RemoteServerModule | null = null;
  if (input.kind === 'remote') {
    const loaded = await importRelease(input.dir, input.manifest!, shell?.shared);
    if (!loaded.ok) return post({ type: 'load-failed', reason: loaded.reason });
    module = loaded.module;
  }
  post({
    type: 'ready',
    routes: (module?.routes ?? []).map((r) => ({ path: r.path, ...(r.data ? { data: { source: r.data.source, ...(r.data.param !== undefined ? { param: r.data.param } : {}) } } : {}), head: typeof r.head === 'function' })),
    rendersOnServer: input.kind === 'shell' ? Boolean(shell) : typeof module?.render === 'function',
  });
  const { pages } = await new Promise<SmokeMainMessage>((resolve) => parentPort!.once('message', resolve));
  for (const page of pages) {
    post({ type: 'page', url: page.url });
    const pageStarted = performance.now();
    try {
      await renderOne(page);
    } catch (error) {
      return post({ type: 'failed', url: page.url, error: firstLine(error) });
    }
    post({ type: 'rendered', url: page.url, ms: performance.now() - pageStarted });
  }
  post({ type: 'done' });

  /** One page as compose-page.ts renders it: the remote's `render`, then the shell's tree around its element. */
  async function renderOne(page: SmokePage): Promise<void> {
    const path = new URL(page.url, 'http://smoke.invalid').pathname;
    let site: SiteData = { path, status: page.status };
    let area: ServerArea = { kind: 'client' };
    if (module?.render) {
      site = { ...site, remote: input.manifest!.name, ...(page.source ? { source: page.source, data: page.data } : {}) };
      const result = await module.render(page.url, { data: page.data, source: page.source, status: page.status, signal: new AbortController().signal });
      if (!result || typeof result !== 'object' || !('element' in result)) throw new Error('render() did not answer { element }');
      area = { kind: 'remote', element: result.element };
      if (result.data !== undefined && page.source) site = { ...site, data: result.data };
    }
    if (!shell) return;
    const left = Math.max(1, input.deadlineMs - (performance.now() - started));
    const rendered = await shell.renderPage({ url: page.url, remotes: input.remotes, area, site, timeoutMs: left });
    // What React caught while rendering (the page's area handed to the browser, "Something went wrong" there).
    if (rendered.errors.length > 0) throw rendered.errors[0];
  }
}

// The lowest CPU priority for this thread (on Linux a nice value is the thread's own): the server's thread, answering
// visitors, goes first on a busy machine; the deadline still bounds the render.
try {
  setPriority(19);
} catch {
  // Not permitted here (some containers).
}

main(workerData as SmokeWorkerInput).catch((error: unknown) => post({ type: 'failed', url: '', error: firstLine(error) }));
