import type { Context } from 'koa';
import { DEV_OVERRIDE_COOKIE, DEV_OVERRIDE_OFF, DEV_OVERRIDE_PARAM, type DevOverrideTokens } from '../releases/dev-override-tokens';
import type { Logger } from '../../lib/logger';

/*
 * The browser side of a development override (issue 52), as preview.ts is for previews: the link
 * (`<page>?dev-override=<token>`) puts its token in a cookie of that browser and sends it to the page without the token;
 * `?dev-override=off` (the banner's link) takes it out. What a request with the cookie gets is release-choice.ts's to say.
 */

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

function withoutParam(ctx: Context): string {
  const search = new URLSearchParams(ctx.querystring);
  search.delete(DEV_OVERRIDE_PARAM);
  const rest = search.toString();
  // `//host` would leave the site: a path of ours only.
  const local = ctx.path.startsWith('/') && !ctx.path.startsWith('//') && !ctx.path.startsWith('/\\') ? ctx.path : '/';
  return `${local}${rest ? `?${rest}` : ''}`;
}

/**
 * Answers a development override link or the leave link (a GET or HEAD with `?dev-override=`): sets or clears the
 * cookie and redirects to the same page without the parameter. A token that grants nothing answers 410 with why, and
 * sets nothing. Returns false when the request is neither.
 */
export function answerDevOverrideLink(ctx: Context, tokens: DevOverrideTokens, logger?: Logger): boolean {
  const value = new URLSearchParams(ctx.querystring).get(DEV_OVERRIDE_PARAM);
  if (value === null) return false;
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
    ctx.status = 410;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `This development override link cannot be used: ${read.reason}. Ask for a new one (POST /api/releases/{app}/dev-override, or npm run dev).\n`;
    return true;
  }
  logger?.info({ remote: read.grant.app, entryUrl: read.grant.entryUrl, expiresAt: read.grant.expiresAt.toISOString() }, 'a browser turned a development override on');
  setDevOverrideCookie(ctx, value, read.grant.expiresAt);
  ctx.status = 303;
  ctx.redirect(withoutParam(ctx));
  return true;
}
