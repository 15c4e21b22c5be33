/**
 * Matches a URL path against react-router style patterns (`/blog/:slug`, `/admin/*`) exactly as react-router 7
 * does in the browser (`matchRoutes`: the path decoded segment by segment, then `matchPath` with its defaults).
 * Shared by the shell (which remote renders) and the server (200 or 404), so both agree with the router that
 * finally renders the page; `packages/ui/src/__tests__/route-match.property.test.ts` checks that on generated
 * patterns and paths. Supported pattern syntax: static segments, `:param` segments and a trailing `*`
 * (no optional `?` segments).
 *
 * Semantics (each one a former disagreement with the router, fixed):
 *   - static segments match case-insensitively (`/BLOG` is `/blog`); params keep the case they were given;
 *   - any number of trailing slashes is allowed (`/blog//`), but an empty segment inside the path is not
 *     (`/blog//x` does not match `/blog/:slug`);
 *   - the path is percent-decoded first (`/bl%6Fg` is `/blog`, `%20` is a space in a param); a decoded `/`
 *     (`%2F`) stays inside its segment and comes out of a param as `/`;
 *   - a path with a malformed escape (`%E0%A4%A`) is matched undecoded, as the router does (it renders the
 *     route with the raw text as its param), instead of matching nothing.
 */
export function matchRoutePattern(pattern: string, pathname: string): Record<string, string> | null {
  return matchDecoded(pattern, decodePath(pathname));
}

/** matchRoutePattern on a path already decoded by decodePath (decoded once however many patterns are tried). */
function matchDecoded(pattern: string, decoded: string): Record<string, string> | null {
  const { regex, names } = compile(pattern);
  const match = regex.exec(decoded);
  if (!match) return null;
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    params[name] = (match[i + 1] ?? '').replace(/%2F/g, '/');
  });
  return params;
}

/** The `:param` names of a route pattern, as a type: `'/blog/category/:category'` gives `'category'`. */
export type RoutePatternParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RoutePatternParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The path a pattern names for these params (the inverse of `matchRoutePattern`): each `:param` segment is
 * replaced by its value, percent-encoded (`/` included), so the path matches the pattern again with the value
 * as its param (for any non-empty value; the type asks for every param the pattern names).
 */
export function fillRoutePattern<P extends string>(pattern: P, params: Record<RoutePatternParams<P>, string>): string {
  const values = params as Record<string, string | undefined>;
  return pattern.replace(/\/:([\w-]+)/g, (_whole, name: string) => `/${encodeURIComponent(values[name] ?? '')}`);
}

export function matchesAny(patterns: readonly string[], pathname: string): boolean {
  return patterns.some((p) => matchRoutePattern(p, pathname) !== null);
}

/**
 * The pattern react-router would pick among `patterns` for `pathname` (its ranking: more segments, static over
 * `:param` over `*`; the earlier pattern on a tie), with its params; null when none matches. `/blog/category/:c`
 * beats `/blog/:slug` for `/blog/category/news`, whatever their order.
 */
export function bestRouteMatch(
  patterns: readonly string[],
  pathname: string,
): { pattern: string; params: Record<string, string> } | null {
  let best: { pattern: string; params: Record<string, string>; score: number } | null = null;
  const decoded = decodePath(pathname);
  for (const pattern of patterns) {
    const params = matchDecoded(pattern, decoded);
    if (!params) continue;
    const score = routeScore(pattern);
    if (!best || score > best.score) best = { pattern, params, score };
  }
  return best && { pattern: best.pattern, params: best.params };
}

/** react-router's ranking of a route path (`computeScore`): segments count, static 10, `:param` 3, empty 1, `*` -2. */
export function routeScore(pattern: string): number {
  const segments = pattern.split('/');
  let score = segments.length + (segments.includes('*') ? -2 : 0);
  for (const segment of segments) {
    if (segment === '*') continue;
    score += /^:[\w-]+$/.test(segment) ? 3 : segment === '' ? 1 : 10;
  }
  return score;
}

/** Decodes each segment; a decoded `/` is kept as `%2F` so it cannot split a segment. Malformed: left as is. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

const compiled = new Map<string, { regex: RegExp; names: string[] }>();

function compile(pattern: string): { regex: RegExp; names: string[] } {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const names: string[] = [];
  const splat = pattern.endsWith('*');
  let source =
    '^' +
    pattern
      .replace(/(?<!\/)\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)/g, (_whole, name: string) => {
        names.push(name);
        return '/([^\\/]+)';
      });
  if (splat) {
    names.push('*');
    source += pattern === '*' || pattern === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else {
    source += '\\/*$';
  }
  const entry = { regex: new RegExp(source, 'i'), names };
  if (compiled.size < 500) compiled.set(pattern, entry);
  return entry;
}
