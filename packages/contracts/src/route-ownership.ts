import { BLOG_FEED_PATH } from './blog-routes';
import type { RemoteName } from './manifest';

/*
 * Which app owns which paths (issue 51): the site says so, never a release. A release may declare only routes inside
 * its app's patterns, and the shell and the server give a path to its owner, the most specific pattern that covers it,
 * whatever the remotes declare or the order they come in.
 *
 * Ownership patterns (not react-router patterns), compared without case and without trailing slashes:
 *   `/roi-calculator`      that path only;
 *   `/local-services/*`    `/local-services` and every path below it;
 *   `/blog*`               every path that starts with `/blog` (`/blog`, `/blog/x`, `/blogroll`).
 * The most specific pattern is the one with the longer text before its `*`; a pattern without `*` beats one with the
 * same text. The server's own paths (SERVER_ROUTES) are owned like an app's, so no release can take them.
 */

export type RouteOwner = RemoteName | 'server';
export interface OwnedPattern {
  readonly owner: RouteOwner;
  readonly pattern: string;
}

/** What the server answers itself: the API, the remotes' files, media, the feed, the sitemaps, the site's files and its deploy tool. */
export const SERVER_ROUTES: readonly string[] = ['/api/*', '/mfe/*', '/media/*', '/assets/*', BLOG_FEED_PATH, '/sitemap*', '/robots.txt', '/remotes.json', '/site-deploy.mjs'];

/** The routes each app owns unless APP_ROUTES_<APP> says otherwise: exactly what today's releases declare. */
export const DEFAULT_APP_ROUTES: Readonly<Record<RemoteName, readonly string[]>> = {
  marketing: ['/', '/local-services/*', '/case-studies/*', '/restaurant-order-bot', '/retail-customer-service', '/service-business-automation', '/roi-calculator'],
  analysis: ['/free-analysis/*', '/website-analysis*'],
  blog: ['/blog*'],
  admin: ['/admin*'],
};

/** An ownership pattern: `/`, then segments of letters, digits and `-._~%@`, optionally ending in `*` or `/*`. */
export const OWNERSHIP_PATTERN = /^\/(?:[\w.~%@-]+(?:\/[\w.~%@-]+)*)?(?:\/?\*)?$/;

/** The site's table: the server's paths first, then each app's patterns. */
export function ownershipTable(apps: Readonly<Partial<Record<RemoteName, readonly string[]>>>): OwnedPattern[] {
  return [
    ...SERVER_ROUTES.map((pattern) => ({ owner: 'server' as const, pattern })),
    ...(Object.entries(apps) as Array<[RemoteName, readonly string[] | undefined]>).flatMap(([owner, patterns]) => (patterns ?? []).map((pattern) => ({ owner, pattern }))),
  ];
}

/** The text without its trailing slashes (`/` stays `/`); a loop, since a regex on trailing slashes is quadratic. */
function trimSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end -= 1;
  return end === 0 ? '/' : text.slice(0, end);
}

/** How specific `pattern` is when it covers `path` (a normalised path), or null when it does not cover it. */
function coverage(pattern: string, path: string): number | null {
  const p = pattern.toLowerCase();
  if (p.endsWith('/*')) {
    const base = p.slice(0, -2);
    return path === (base || '/') || path.startsWith(`${base}/`) ? base.length * 2 : null;
  }
  if (p.endsWith('*')) {
    const prefix = p.slice(0, -1);
    return path.startsWith(prefix) ? prefix.length * 2 : null;
  }
  return path === trimSlashes(p) ? p.length * 2 + 1 : null;
}

/** A URL path as the router sees it: each segment percent-decoded (a malformed escape left as is), lower case. */
export function normalisePath(pathname: string): string {
  let decoded: string;
  try {
    decoded = pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    decoded = pathname;
  }
  return trimSlashes(decoded.toLowerCase());
}

/** Who owns `pathname`: the owner of the most specific pattern that covers it; null when none does. */
export function ownerOfPath(table: readonly OwnedPattern[], pathname: string): RouteOwner | null {
  const path = normalisePath(pathname);
  let best: { owner: RouteOwner; score: number } | null = null;
  for (const { owner, pattern } of table) {
    const score = coverage(pattern, path);
    if (score !== null && (!best || score > best.score)) best = { owner, score };
  }
  return best?.owner ?? null;
}

/** A react-router pattern a release may declare: static segments, `:param` segments, a last `*`. */
const ROUTE_SEGMENT = /^(?::[\w-]+|[\w.~%@!$&'()+,;=-]+)$/;

/**
 * Why `app` may not declare the route (or page) pattern `route`, or undefined when it may: the route must be one the
 * site's router reads the same way here and in the browser, every path it matches must start inside one of the app's
 * patterns, and the most specific owner of where it starts must be the app.
 */
export function routeRefusal(table: readonly OwnedPattern[], app: RemoteName, route: string): string | undefined {
  const shown = JSON.stringify(route.length > 120 ? `${route.slice(0, 120)}…` : route);
  if (route.length > 300) return `the route ${shown} is longer than 300 characters`;
  const trimmed = trimSlashes(route.toLowerCase());
  const segments = trimmed === '/' ? [] : trimmed.split('/').slice(1);
  if (!route.startsWith('/') || segments.some((s, i) => !(ROUTE_SEGMENT.test(s) || (s === '*' && i === segments.length - 1)))) {
    return `the route ${shown} is not a route the site reads (segments of letters, digits and -._~%@!$&'()+,;=, \`:param\`, a last \`*\`)`;
  }
  // The text every path the route matches starts with: up to its first `:param`, or before its `*`.
  const open = segments.findIndex((s) => s === '*' || s.startsWith(':'));
  const head = open < 0 ? trimmed : segments[open] === '*' ? `/${segments.slice(0, open).join('/')}` : `/${segments.slice(0, open).map((s) => `${s}/`).join('')}`;
  const mine = table.filter((entry) => entry.owner === app);
  const inside = mine.some(({ pattern }) => {
    const p = pattern.toLowerCase();
    if (p.endsWith('/*')) {
      const base = p.slice(0, -2);
      return head === (base || '/') || head.startsWith(`${base}/`);
    }
    if (p.endsWith('*')) return head.startsWith(p.slice(0, -1));
    return open < 0 && head === trimSlashes(p);
  });
  const owner = ownerOfPath(table, head);
  if (inside && owner === app) return undefined;
  const owns = mine.map((entry) => entry.pattern).join(', ') || 'nothing';
  const other = owner && owner !== app ? ` (it belongs to ${owner === 'server' ? 'the server' : owner})` : '';
  return `the route ${shown} is outside ${app}'s routes${other}: ${app} owns ${owns}`;
}
