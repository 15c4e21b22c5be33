import type { Context } from 'koa';
import { PREVIEW_COOKIE, PREVIEW_OFF, PREVIEW_PARAM, type PreviewTokens } from '../releases/preview-tokens';
import type { Logger } from '../../lib/logger';

/*
 * The browser side of a preview (issue 34): the link (`<page>?preview=<token>`) puts its token in a cookie of that
 * browser and sends it to the page without the token in the address; `?preview=off` (the banner's link) takes it out.
 * What a request with the cookie gets is release-choice.ts's to say; pages and files answered from a preview are for
 * that browser only (`private`, kept by no shared cache) and never indexed.
 */

/** HttpOnly, SameSite=Lax (the link is followed from a chat or a mail), Path=/, Secure on https. */
export function setPreviewCookie(ctx: Context, token: string | null, expiresAt?: Date): void {
  ctx.cookies.set(PREVIEW_COOKIE, token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: ctx.secure,
    overwrite: true,
    ...(token && expiresAt ? { expires: expiresAt } : { expires: new Date(0) }),
  });
}

/**
 * An answer that depends on the preview cookie or a canary's bucket: for this browser alone, never in a CDN (nor in an
 * nginx cache told to ignore Cache-Control: `X-Accel-Expires: 0`, which it still obeys), never indexed when previewed.
 */
export function answerPrivately(ctx: Context, preview: boolean): void {
  if (ctx.response.get('Cache-Control') !== 'no-store') ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('X-Accel-Expires', '0');
  ctx.remove('CDN-Cache-Control');
  ctx.remove('Surrogate-Control');
  ctx.remove('Surrogate-Key');
  ctx.remove('Cache-Tag');
  if (preview) ctx.set('X-Robots-Tag', 'noindex, nofollow');
}

/** The address without the preview parameter (where the link and the leave link go). */
function withoutPreviewParam(ctx: Context): string {
  const search = new URLSearchParams(ctx.querystring);
  search.delete(PREVIEW_PARAM);
  const rest = search.toString();
  // `//host` would leave the site: a path of ours only.
  const local = ctx.path.startsWith('/') && !ctx.path.startsWith('//') && !ctx.path.startsWith('/\\') ? ctx.path : '/';
  return `${local}${rest ? `?${rest}` : ''}`;
}

/**
 * Answers a preview link or the leave link (a GET or HEAD with `?preview=`): sets or clears the cookie and redirects
 * to the same page without the parameter. A token that grants nothing answers 410 with why, and sets nothing.
 * Returns false when the request is neither.
 */
export function answerPreviewLink(ctx: Context, tokens: PreviewTokens, logger?: Logger): boolean {
  const value = new URLSearchParams(ctx.querystring).get(PREVIEW_PARAM);
  if (value === null) return false;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  if (value === PREVIEW_OFF) {
    setPreviewCookie(ctx, null);
    ctx.status = 303;
    ctx.redirect(withoutPreviewParam(ctx));
    return true;
  }
  const read = tokens.read(value);
  if (!read.ok) {
    logger?.info({ path: ctx.path, reason: read.reason }, 'a preview link was refused');
    ctx.status = 410;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `This preview link cannot be used: ${read.reason}. Ask for a new one (the deploy log lists staged releases with theirs).\n`;
    return true;
  }
  setPreviewCookie(ctx, value, read.grant.expiresAt);
  ctx.status = 303;
  ctx.redirect(withoutPreviewParam(ctx));
  return true;
}
