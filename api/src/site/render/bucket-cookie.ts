import type { Context } from 'koa';
import { BUCKET_COOKIE, BUCKET_COOKIE_DAYS } from '../releases/release-choice';

/**
 * The visitor's canary bucket (release-choice.ts): a random id and nothing else, set on the first answer that needs it
 * while a canary runs, for a year, so the visitor keeps the release a canary gave it on every page and the next visit.
 * HttpOnly (no script reads it), SameSite=Lax, Path=/, Secure on https.
 */
export function setBucketCookie(ctx: Context, bucket: string): void {
  ctx.cookies.set(BUCKET_COOKIE, bucket, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: ctx.secure,
    overwrite: true,
    maxAge: BUCKET_COOKIE_DAYS * 24 * 60 * 60_000,
  });
}
