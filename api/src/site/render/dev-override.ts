import type { Context } from 'koa';
import { ADMIN_SESSION_COOKIE, ADMIN_SESSION_COOKIE_SECURE } from '@site/contracts/admin';
import { SITE_NAME } from '@site/contracts/site';
import { DEV_OVERRIDE_COOKIE, DEV_OVERRIDE_OFF, DEV_OVERRIDE_PARAM, type DevOverrideGrant, type DevOverrideTokens } from '../releases/dev-override-tokens';
import type { ChoiceRequest } from '../releases/release-choice';
import { fromThisSite } from '../../middleware/same-origin';
import type { Logger } from '../../lib/logger';
import { escapeHtml } from './document-html';

/*
 * The browser side of a development override (issue 52), as preview.ts is for previews. A link is one a deploy token
 * can make and anyone can be sent, and the override runs its code on the site's own origin, so opening the link
 * (`<page>?dev-override=<token>`) only shows what it would do; the page's "Turn on" button (a same-origin POST of the
 * same address) puts the token in a cookie of that browser and sends it to the page without the token.
 * `?dev-override=off` (the banner's link) takes it out. The admin never gets an override: not on its pages, and not on
 * any page of a browser with a live admin session (its requests to /api/admin would carry the session); the
 * confirmation page refuses while an admin session cookie is there, and logging in clears the override's cookie (a tab
 * that loaded the override before, the shell leaves for the admin's pages with a full load). What a request with the
 * cookie gets is release-choice.ts's to say.
 */

/** Who the admin is, for keeping overrides away from it (app.ts: the admin app's routes and its session store). */
export interface DevOverrideAdmin {
  /** Whether the path is one of the admin's pages: never served with an override. */
  ownsPage(path: string): boolean;
  /** Whether the request carries a live admin session (a look-up: asked only of a request with an override cookie). */
  liveSession(ctx: Context): Promise<boolean>;
}

/** HttpOnly, SameSite=Lax (the link is opened from a terminal or a chat), Path=/, Secure on https, until the token expires. */
export function setDevOverrideCookie(ctx: Context, token: string | null, expiresAt?: Date): void {
  ctx.cookies.set(DEV_OVERRIDE_COOKIE, token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: ctx.secure,
    overwrite: true,
    ...(token && expiresAt ? { expires: expiresAt } : { expires: new Date(0) }),
  });
}

/** The request's path when it is one of ours (`//host` would leave the site). */
const localPath = (ctx: Context) => (ctx.path.startsWith('/') && !ctx.path.startsWith('//') && !ctx.path.startsWith('/\\') ? ctx.path : '/');

function withoutParam(ctx: Context): string {
  const search = new URLSearchParams(ctx.querystring);
  search.delete(DEV_OVERRIDE_PARAM);
  const rest = search.toString();
  return `${localPath(ctx)}${rest ? `?${rest}` : ''}`;
}

/** Either admin session cookie, whatever its value: enough to withhold the button (the page is no place for a look-up). */
const hasAdminCookie = (ctx: Context) => Boolean(ctx.cookies.get(ADMIN_SESSION_COOKIE) || ctx.cookies.get(ADMIN_SESSION_COOKIE_SECURE));

/**
 * The confirmation page's own policy: its inline styles, a form back to the site, nothing else, in no frame. (No
 * `no-referrer` here: under it a browser posts the form with `Origin: null`, which the POST's check refuses.)
 */
const CONFIRMATION_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** `2026-06-01 18:00 UTC`: the server cannot know the browser's time zone. */
const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The page a link opens, rendered here so it works without JavaScript: what the override would do, until when, and
 * "Turn on" (a POST of the link's own address) or "Cancel" (the page without the link). In a browser with an admin
 * session cookie it says to log out first instead of offering the button. The site's colours, light and dark.
 */
export function devOverrideConfirmationPage(grant: DevOverrideGrant, links: { action: string; cancel: string }, adminSession: boolean): string {
  const app = escapeHtml(grant.app);
  const what =
    `Development override for ${app}: this browser will run ${app}'s code from <strong>${escapeHtml(grant.origin)}</strong> instead of the site's release, ` +
    `until <time datetime="${grant.expiresAt.toISOString()}">${utc(grant.expiresAt)}</time>.` +
    (adminSession ? '' : ' <strong>Only continue if you started this yourself.</strong>');
  const cancel = `<a class="button secondary" href="${escapeHtml(links.cancel)}">Cancel</a>`;
  const actions = adminSession
    ? `<p class="warning" role="alert"><strong>Log out of the admin first.</strong> This browser has an admin session, and a browser logged into the admin never runs a development override. Log out, then open the link again.</p>` +
      `<div class="actions">${cancel}</div>`
    : `<form method="post" action="${escapeHtml(links.action)}" class="actions"><button type="submit" class="button primary">Turn on</button>${cancel}</form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Development override for ${app} | ${escapeHtml(SITE_NAME)}</title>
<style>
:root{--bg:#f8fafc;--surface:#fff;--fg:#0f172a;--muted-fg:#475569;--border:#e2e8f0;--primary:#1d4ed8;--primary-hover:#1e40af;--warning:#b45309;--warning-soft:#fef3c7;--ring:#2563eb;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#020617;--surface:#0f172a;--fg:#f1f5f9;--muted-fg:#a3b1c6;--border:#334155;--warning:#fbbf24;--warning-soft:#451a03;--ring:#60a5fa}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--fg);font:16px/1.6 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;display:flex;align-items:flex-start;justify-content:center;padding:3rem 1rem}
main{width:100%;max-width:36rem;background:var(--surface);border:1px solid var(--border);border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05)}
h1{font-size:1.25rem;line-height:1.4;margin:0 0 1rem}
p{margin:0 0 1rem}
.site{color:var(--muted-fg);font-size:.875rem;margin-bottom:.5rem}
.entry{color:var(--muted-fg);font-size:.875rem;overflow-wrap:anywhere}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.warning{background:var(--warning-soft);border-left:4px solid var(--warning);padding:.75rem 1rem;border-radius:.5rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0 0}
.button{display:inline-flex;align-items:center;justify-content:center;border-radius:.5rem;font-family:inherit;font-weight:600;font-size:.875rem;line-height:1.25rem;padding:.625rem 1rem;text-decoration:none;cursor:pointer;border:1px solid transparent;min-width:7rem}
.primary{background:var(--primary);color:#fff}
.primary:hover{background:var(--primary-hover)}
.secondary{background:var(--surface);color:var(--fg);border-color:var(--border)}
.button:focus-visible{outline:2px solid var(--ring);outline-offset:2px}
@media (max-width:30rem){body{padding:1rem .75rem}.button{flex:1 1 100%}}
</style>
</head>
<body>
<main>
<p class="site">${escapeHtml(SITE_NAME)}</p>
<h1>${adminSession ? 'Log out of the admin first' : `Turn on a development override of ${app}?`}</h1>
<p>${what}</p>
<p class="entry">Entry: <code>${escapeHtml(grant.entryUrl)}</code></p>
${actions}
</main>
</body>
</html>
`;
}

/** Reads development override links and keeps overrides away from the admin. */
export function devOverrideLinks(options: { tokens: DevOverrideTokens; admin: DevOverrideAdmin; publicOrigin: string; logger?: Logger }) {
  const cameFromSite = fromThisSite({ publicOrigin: options.publicOrigin });
  const { tokens, admin, logger } = options;

  function refuse(ctx: Context, status: number, text: string): true {
    ctx.status = status;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = text;
    return true;
  }

  return {
    /**
     * Answers a development override link (a GET or HEAD: the confirmation page; a POST from the site's own page: the
     * cookie, then the page without the token) or the leave link (`?dev-override=off`: the cookie goes). A token that
     * grants nothing answers 410 with why, and sets nothing. Returns false when the request is neither.
     */
    answer(ctx: Context): boolean {
      const value = new URLSearchParams(ctx.querystring).get(DEV_OVERRIDE_PARAM);
      if (value === null || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return false;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex, nofollow');
      if (value === DEV_OVERRIDE_OFF) {
        setDevOverrideCookie(ctx, null);
        ctx.status = 303;
        ctx.redirect(withoutParam(ctx));
        return true;
      }
      const read = tokens.read(value);
      if (!read.ok) {
        logger?.info({ path: ctx.path, reason: read.reason }, 'a development override link was refused');
        return refuse(ctx, 410, `This development override link cannot be used: ${read.reason}. Ask for a new one (POST /api/releases/{app}/dev-override, or npm run dev).\n`);
      }
      const { grant } = read;
      const page = (status: number) => {
        ctx.status = status;
        ctx.set('Content-Security-Policy', CONFIRMATION_CSP);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = devOverrideConfirmationPage(grant, { action: `${localPath(ctx)}?${ctx.querystring}`, cancel: withoutParam(ctx) }, hasAdminCookie(ctx));
        return true;
      };
      if (ctx.method !== 'POST') return page(200);
      // Only the confirmation page's own form turns it on: a page elsewhere posting the link is refused.
      const fetchSite = ctx.get('Sec-Fetch-Site');
      if ((fetchSite && fetchSite !== 'same-origin') || !cameFromSite(ctx)) {
        logger?.warn({ path: ctx.path, remote: grant.app, origin: ctx.get('Origin') || null, fetchSite: fetchSite || null }, 'a development override was refused: not posted from this site');
        return refuse(ctx, 403, 'This request did not come from this site: open the development override link and press Turn on there.\n');
      }
      if (hasAdminCookie(ctx)) return page(403);
      logger?.info({ remote: grant.app, entryUrl: grant.entryUrl, expiresAt: grant.expiresAt.toISOString() }, 'a browser turned a development override on');
      setDevOverrideCookie(ctx, value, grant.expiresAt);
      ctx.status = 303;
      ctx.redirect(withoutParam(ctx));
      return true;
    },

    /**
     * The request as the release choice reads it: without its override cookie on the admin's pages and when it carries
     * a live admin session (or one that cannot be checked now). The cookie is ignored here, not cleared: the admin's
     * login clears it (admin/auth-routes.ts), so a browser that logs in has it off until a new link is opened.
     */
    async choiceRequest(ctx: Context): Promise<ChoiceRequest> {
      if (!ctx.cookies.get(DEV_OVERRIDE_COOKIE)) return ctx;
      let withheld = admin.ownsPage(ctx.path);
      if (!withheld && hasAdminCookie(ctx)) withheld = await admin.liveSession(ctx).catch(() => true);
      if (!withheld) return ctx;
      return { cookies: { get: (name: string) => (name === DEV_OVERRIDE_COOKIE ? undefined : ctx.cookies.get(name)) } };
    },
  };
}

export type DevOverrideLinkHandler = ReturnType<typeof devOverrideLinks>;
