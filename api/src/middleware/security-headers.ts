import type { Context, Next } from 'koa';

export interface SecurityHeadersOptions {
  /** `'sha256-…'` sources for the inline scripts of the served shell page (re-read when it changes). */
  inlineScriptHashes: () => Promise<readonly string[]>;
  /** Origins of remotes served from elsewhere (`REMOTE_<NAME>_URL`); they may serve scripts and styles. */
  remoteOrigins: readonly string[];
}

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()';

/** Builds the Content-Security-Policy value. Exported so tests and docs can show the exact policy. */
export function contentSecurityPolicy(hashes: readonly string[], remoteOrigins: readonly string[]): string {
  const remotes = remoteOrigins.join(' ');
  const list = (...sources: string[]) => sources.filter(Boolean).join(' ');
  return [
    `default-src 'self'`,
    `script-src ${list(`'self'`, ...hashes, remotes)}`,
    // A remote on another host brings its own CSS (injected as <link>) and the fonts it references.
    `style-src ${list(`'self'`, `'unsafe-inline'`, remotes)}`,
    `img-src 'self' data: https:`,
    `font-src ${list(`'self'`, 'data:', remotes)}`,
    `connect-src ${list(`'self'`, remotes)}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `frame-ancestors 'none'`,
    `form-action 'self'`,
  ].join('; ');
}

/** The directives a remote served from another origin needs that origin in (its code, CSS, fonts, images, requests). */
const REMOTE_DIRECTIVES = ['script-src', 'style-src', 'font-src', 'img-src', 'connect-src'];

/**
 * `policy` with `origin` added to the directives a remote's code needs: the page of one browser with a development
 * override (site/render/dev-override.ts), which loads one remote from the developer's server. Nothing else changes.
 */
export function policyWithOrigin(policy: string, origin: string): string {
  return policy
    .split('; ')
    .map((directive) => (REMOTE_DIRECTIVES.includes(directive.split(' ')[0]!) && !directive.split(' ').includes(origin) ? `${directive} ${origin}` : directive))
    .join('; ');
}

/** Security headers and CSP on every answer: API, static files, HTML and errors alike. */
export function securityHeaders(options: SecurityHeadersOptions) {
  return async function setSecurityHeaders(ctx: Context, next: Next) {
    const hashes = await options.inlineScriptHashes();
    ctx.set({
      'Content-Security-Policy': contentSecurityPolicy(hashes, options.remoteOrigins),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
      'Permissions-Policy': PERMISSIONS_POLICY,
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    // ctx.secure follows X-Forwarded-Proto only when app.proxy is on (TRUST_PROXY).
    if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    await next();
  };
}
