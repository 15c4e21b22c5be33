import type { Context } from 'koa';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { sendRemoteFile } from './static/remote-files';
import { robotsTxt } from './static/robots';
import { NO_CACHE, SHORT_CACHE, safeJoin, sendStaticFile } from './static/static-files';
import { servePage, type PageOptions } from './render/render-page';
/** The site's parts: its pages (render/render-page.ts), the releases, the shell's files. */
export type SiteOptions = PageOptions;

const MFE_PATH = /^\/mfe\/([^/]+)(\/.*)?$/;

/**
 * The single-machine site: `/remotes.json`, `/robots.txt`, each remote's dist under `/mfe/<name>/`,
 * the shell's dist at `/`, and the shell page (200 on a declared route, 404 otherwise) for every
 * other path that asks for HTML. Runs after the API, so it never sees `/api` paths.
 */
export function site(options: SiteOptions) {
  return async function serveSite(ctx: Context) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Allow', 'GET, HEAD');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Method not allowed\n';
      return;
    }

    if (ctx.path === '/remotes.json') {
      const { map } = await options.remotes.snapshot();
      ctx.set('Cache-Control', NO_CACHE);
      ctx.body = map;
      return;
    }

    if (ctx.path === '/robots.txt') {
      ctx.set('Cache-Control', SHORT_CACHE);
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = robotsTxt(options.publicOrigin);
      return;
    }

    const mfe = MFE_PATH.exec(ctx.path);
    if (mfe) {
      const name = mfe[1] as RemoteName;
      // A remote's index.html is its standalone preview page (vite preview), not part of the site.
      if (safeJoin('/preview-check', mfe[2] ?? '/')?.relative === 'index.html') return plainNotFound(ctx);
      // The served release (server modules excluded); hashed assets of earlier releases for tabs still open on them.
      const served = REMOTE_NAMES.includes(name) && (await sendRemoteFile(ctx, options.remotes, name, mfe[2] ?? '/'));
      if (!served) plainNotFound(ctx);
      return;
    }

    // index.html is a template; it only ever goes out rendered. The shell's server entry (server/) stays on the server.
    const shellDirs = await options.shell.dirs();
    const notServed = { exclude: (rel: string) => rel === 'index.html' || rel === 'server' || rel.startsWith('server/') || rel === 'release-signature.json' };
    if (await sendStaticFile(ctx, shellDirs.current, ctx.path, notServed)) return;
    // A hashed asset of an earlier shell release: a tab opened before a shell deploy still loads its chunks.
    if (ctx.path.startsWith('/assets/')) for (const dir of shellDirs.previous) if (await sendStaticFile(ctx, dir, ctx.path, notServed)) return;

    // A missing file (a script, an image) gets a short 404, not the page. Whether a path is the page or that 404
    // depends on Accept: a shared cache must keep the two apart.
    if (!ctx.path.startsWith('/assets/')) ctx.vary('Accept');
    if (ctx.path.startsWith('/assets/') || !ctx.accepts('html')) {
      plainNotFound(ctx);
      return;
    }

    await servePage(ctx, options);
  };
}

function plainNotFound(ctx: Context): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not found\n';
}

