import type { Logger } from '../../lib/logger';
import { withSpan } from '../../lib/tracing';
import { createRenderQueue, type RenderQueue } from './render-queue';
import type { ResolvedPage } from './resolve-page';
import type { ServerArea, ShellServer, ShellServerEntry, SiteData } from './shell-server';

/** The default budget of one remote's server render (SSR_TIMEOUT_MS). */
export const DEFAULT_SSR_TIMEOUT_MS = 150;

export interface ComposedBody {
  /** The markup inside #root (shell chrome plus the remote's page, or its hand-over to the browser). */
  html: string;
  /** What the browser reads back while hydrating (embedded once as JSON). */
  site: SiteData;
  /** Tags React asked to put first (image preloads): they belong in the head. */
  headTags: string;
  /** Milliseconds from asking the remote to render until the HTML was complete. */
  renderMs: number;
  /**
   * Everything was rendered on the server: no area handed to the browser after an error, a timeout or a missing
   * server module. Only a complete page is kept by the render cache.
   */
  complete: boolean;
}

export interface PageComposer {
  /**
   * The server-rendered body of one page, or null when the page is rendered in the browser alone (no shell server
   * entry, or a remote without server rendering such as admin). Never throws for a remote's failure: that remote's
   * area is handed to the browser and the failure logged at warn.
   */
  compose(input: {
    url: string;
    notFound: boolean;
    /**
     * The shell's server entry of this request's shell page (shell-document.ts: read once per request with the
     * document, so the page is rendered and cached with one shell); the serving shell's when not given.
     */
    shell?: ShellServerEntry | null;
    /** The request's page, resolved once: its owner, the release and module serving it, its route and data. */
    page: ResolvedPage;
  }): Promise<ComposedBody | null>;
}

const ids = new WeakMap<object, string>();
let nextId = 0;
/** A name for one object (a loaded module) for as long as it lives: two loads of a file are two names. */
export function identity(value: object): string {
  let id = ids.get(value);
  if (!id) ids.set(value, (id = `#${++nextId}`));
  return id;
}

class RenderTimeout extends Error {
  constructor(ms: number) {
    super(`the server entry did not answer within ${ms} ms`);
    this.name = 'RenderTimeout';
  }
}

/** Leading `<link>` tags of React's output (resource hints it hoists for a body render). */
const LEADING_LINKS = /^(?:<link\b[^>]*>)+/;

/**
 * Server-side composition: the matched remote's server entry renders its page for the URL with the data the
 * route asks for (loaded by our own loaders), and the shell's server entry renders the chrome around it in one
 * React tree. Per-remote isolation as in fragment-composition servers: a server entry that is missing, throws or
 * takes longer than `timeoutMs` yields the shell with that area rendered in the browser, status unchanged.
 */
export function createPageComposer(options: {
  shell: ShellServer;
  /** PUBLIC_ORIGIN: the pages' SiteData `origin`, for text naming a page's full address (a printed permalink). */
  publicOrigin?: string;
  timeoutMs?: number;
  /** Renders take turns (render-queue.ts); one that waits too long is rendered in the browser. */
  queue?: RenderQueue;
  logger?: Logger;
  /** Told each render's wait for its turn and its duration (the metrics). Must not throw. */
  observe?: {
    queued(seconds: number, admitted: boolean): void;
    rendered(remote: string, seconds: number, outcome: 'server' | 'browser'): void;
  };
}): PageComposer {
  const { logger } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SSR_TIMEOUT_MS;
  const queue = options.queue ?? createRenderQueue();

  return {
    async compose(input) {
      const shell = input.shell !== undefined ? input.shell : await options.shell.load();
      if (!shell) return null;
      const waitStarted = performance.now();
      const release = await queue.enter();
      options.observe?.queued((performance.now() - waitStarted) / 1000, release !== null);
      if (!release) {
        logger?.info({ path: input.page.path, ...queue.stats() }, 'the server is busy: this page is rendered in the browser');
        return null;
      }
      const remote = input.page.owner?.manifest.name ?? 'shell';
      try {
        // One span per page render, named by the remote that renders it (its data, its render and the shell's).
        return await withSpan(`ssr render ${remote}`, { attributes: { 'site.remote': remote, 'url.path': input.page.path } }, async (span) => {
          const body = await composeWith(shell, input);
          if (body) {
            const outcome = body.complete ? 'server' : 'browser';
            span?.setAttribute('ssr.outcome', outcome);
            options.observe?.rendered(remote, body.renderMs / 1000, outcome);
          }
          return body;
        });
      } finally {
        release();
      }
    },
  };

  async function composeWith(shell: ShellServerEntry, { url, notFound, page }: Parameters<PageComposer['compose']>[0]): Promise<ComposedBody | null> {
    const started = performance.now();
    let area: ServerArea = { kind: 'client' };
    const { path, snapshot, owner } = page;
    const origin = options.publicOrigin;
    let site: SiteData = { path, status: notFound ? 404 : 200, ...(origin ? { origin } : {}) };

    // An unknown URL is the shell's not-found page; an unknown slug inside a remote's routes is that remote's own
    // not-found state (its page rendered with status 404 and no data).
    if (owner) {
      // A remote that does not render on the server (admin) gets the page of today: rendered in the browser.
      if (!owner.manifest.server?.entry) return null;
      site = { ...site, remote: owner.manifest.name };

      const module = owner.module;
      if (!module?.render) {
        logger?.warn({ remote: owner.manifest.name, path }, 'no server entry loaded for this remote: its area is rendered in the browser');
      } else {
        let data: unknown;
        let source: string | undefined;
        if (owner.route?.def.data && !notFound) {
          const loaded = await page.data();
          if (loaded.loaded && loaded.data !== undefined) [data, source] = [loaded.data, owner.route.def.data.source];
        }
        if (source) site = { ...site, source, data };

        const controller = new AbortController();
        let timer: NodeJS.Timeout | undefined;
        const renderStarted = performance.now();
        try {
          const result = await Promise.race([
            module.render(url, { data, source, status: site.status, ...(origin ? { origin } : {}), signal: controller.signal }),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new RenderTimeout(timeoutMs)), timeoutMs);
            }),
          ]);
          if (!result || typeof result !== 'object' || !('element' in result)) throw new Error('render() did not answer { element }');
          area = { kind: 'remote', element: result.element };
          if (result.data !== undefined && source) site = { ...site, data: result.data };
        } catch (error) {
          controller.abort(error);
          logger?.warn({ remote: owner.manifest.name, path, err: error }, "the remote's server render failed: its area is rendered in the browser");
        } finally {
          clearTimeout(timer);
        }
        // What is left of the budget bounds React's render of the page (lazy pages, suspending components).
        const left = Math.max(1, timeoutMs - (performance.now() - renderStarted));
        return finish(await renderShell(left));
      }
    }
    return finish(await renderShell(timeoutMs));

    async function renderShell(budget: number) {
      try {
        return await shell!.renderPage({ url, remotes: snapshot.map, area, site, timeoutMs: budget });
      } catch (error) {
        logger?.warn({ path, err: error }, 'the shell could not be rendered on the server: the page is rendered in the browser');
        return null;
      }
    }

    function finish(result: Awaited<ReturnType<typeof renderShell>>): ComposedBody | null {
      if (!result) return null;
      if (result.areaInBrowser && area.kind === 'remote') {
        logger?.warn(
          { remote: site.remote, path, errors: result.errors.map((e) => (e instanceof Error ? e.message : String(e))) },
          "the remote's page did not finish rendering on the server (error or budget): its area is rendered in the browser",
        );
      }
      const links = LEADING_LINKS.exec(result.html)?.[0] ?? '';
      // A page of a remote is complete when the remote's area was rendered here; the shell's own pages always are.
      const complete = owner ? area.kind === 'remote' && !result.areaInBrowser : true;
      return { html: result.html.slice(links.length), headTags: links, site, renderMs: performance.now() - started, complete };
    }
  }
}
