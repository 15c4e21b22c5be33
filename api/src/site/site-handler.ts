import type { Context } from 'koa';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { sendRemoteFile } from './static/remote-files';
import { robotsTxt } from './static/robots';
import { NO_CACHE, SHORT_CACHE, safeJoin, sendStaticFile } from './static/static-files';
import { servePage, type PageOptions } from './render/render-page';
import { answerPreviewLink, answerPrivately, setPreviewCookie } from './render/preview';
import { setBucketCookie } from './render/bucket-cookie';
import type { PreviewTokens } from './releases/preview-tokens';
import type { DevOverrideLinkHandler } from './render/dev-override';
import type { VisitorTokens } from './releases/visitor-tokens';
import { SERVED_RELEASES } from './releases/release-choice';
/** The site's parts: its pages (render/render-page.ts), the releases, the shell's files, and preview links. */
export type SiteOptions = PageOptions & {
  /** Reads preview links (`?preview=<token>`, issue 34); without it a link is an ordinary query string. */
  previews?: PreviewTokens;
  /**
   * Reads development override links (`?dev-override=<token>`, issue 52) and keeps overrides away from the admin
   * (render/dev-override.ts); without it a link is an ordinary query string.
   */
  devOverrides?: DevOverrideLinkHandler;
};

/**
 * A page load's page-view token (issue 51), answered by `GET /page-token.json` (events/events-routes.ts: its rate limit
 * and description): asked for once per page load by the shell, never kept by a cache, so each load has its own (a token
 * inside the cached page would be everyone's). It names the releases this browser gets (its preview, its canary side)
 * and its bucket: its reports count against those releases alone. A visitor without a valid bucket gets one here.
 */
export function pageTokenIssuer(options: Pick<SiteOptions, 'remotes' | 'chooseReleases' | 'devOverrides'> & { tokens: Pick<VisitorTokens, 'issuePageToken'> }) {
  return {
    async issue(ctx: Context): Promise<string> {
      const choice = options.chooseReleases?.(options.devOverrides ? await options.devOverrides.choiceRequest(ctx) : ctx) ?? SERVED_RELEASES;
      if (choice.newBucket) setBucketCookie(ctx, choice.newBucket);
      const { snapshot } = await options.remotes.snapshotFor(choice);
      // The remotes map's versions: the ones the shell's reports name.
      // A remote loaded from a developer's server (a development override) is no release: its reports count for none.
      const releases = Object.fromEntries(Object.entries(snapshot.map).flatMap(([app, remote]) => (remote?.version && app !== choice.dev?.app ? [[app, remote.version]] : [])));
      return options.tokens.issuePageToken(releases, choice.bucket ?? null);
    },
  };
}

const MFE_PATH = /^\/mfe\/([^/]+)(\/.*)?$/;

/**
 * The single-machine site: `/remotes.json`, `/robots.txt`, each remote's dist under `/mfe/<name>/`,
 * the shell's dist at `/`, and the shell page (200 on a declared route, 404 otherwise) for every
 * other path that asks for HTML. Runs after the API, so it never sees `/api` paths.
 */
export function site(options: SiteOptions) {
  return async function serveSite(ctx: Context) {
    // A development override's link, its confirmation (a POST), or its banner's way out: before the method check.
    if (options.devOverrides?.answer(ctx)) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Allow', 'GET, HEAD');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Method not allowed\n';
      return;
    }

    // A preview link, or the banner's link out of the preview: sets or clears the cookie, then the page without it.
    if (options.previews && answerPreviewLink(ctx, options.previews, options.logger)) return;

    // Which release of each remote this browser gets (release-choice.ts): the served ones, a staged one it previews, or
    // a canary's release when its bucket falls in the canary's share; a development override, except for the admin.
    const choice = options.chooseReleases?.(options.devOverrides ? await options.devOverrides.choiceRequest(ctx) : ctx) ?? SERVED_RELEASES;

    if (ctx.path === '/remotes.json') {
      if (choice.newBucket) setBucketCookie(ctx, choice.newBucket);
      const { snapshot } = await options.remotes.snapshotFor(choice);
      ctx.set('Cache-Control', NO_CACHE);
      if (choice !== SERVED_RELEASES) answerPrivately(ctx, Boolean(choice.preview));
      ctx.body = snapshot.map;
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
      const chosen = REMOTE_NAMES.includes(name) ? choice.overrides[name]?.version : undefined;
      const served = REMOTE_NAMES.includes(name) && (await sendRemoteFile(ctx, options.remotes, name, mfe[2] ?? '/', chosen));
      // A cookie that grants nothing any more is taken out with the next answer.
      if (choice.clearCookie) setPreviewCookie(ctx, null);
      if (!served) plainNotFound(ctx);
      return;
    }

    // index.html is a template; it only ever goes out rendered. The shell's server entry (server/) stays on the server.
    const shellDirs = await options.shell.dirs();
    const notServed = { exclude: (rel: string) => rel === 'index.html' || rel === 'server' || rel.startsWith('server/') || rel === 'release-signature.json' };
    if (await sendStaticFile(ctx, shellDirs.current, ctx.path, { ...notServed, lookAgain: ctx.path.startsWith('/assets/') })) return;
    // A hashed asset of an earlier shell release: a tab opened before a shell deploy still loads its chunks.
    if (ctx.path.startsWith('/assets/')) for (const dir of shellDirs.previous) if (await sendStaticFile(ctx, dir, ctx.path, notServed)) return;

    // A missing file (a script, an image) gets a short 404, not the page. Whether a path is the page or that 404
    // depends on Accept: a shared cache must keep the two apart.
    if (!ctx.path.startsWith('/assets/')) ctx.vary('Accept');
    if (ctx.path.startsWith('/assets/') || !ctx.accepts('html')) {
      plainNotFound(ctx);
      return;
    }

    // A visitor's first page while a canary runs draws its bucket: the next requests (the page's files, its next pages,
    // the next visit) carry it and get the same releases. Files never set it (a CDN may keep them).
    if (choice.newBucket) setBucketCookie(ctx, choice.newBucket);
    await servePage(ctx, options, choice);
  };
}

function plainNotFound(ctx: Context): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not found\n';
}

