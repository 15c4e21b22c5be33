/**
 * Matches a URL path against react-router style patterns (`/blog/:slug`, `/admin/*`).
 * Shared by the shell (which remote renders) and the server (200 or 404), so both always agree.
 */
export function matchRoutePattern(pattern: string, pathname: string): Record<string, string> | null {
  const clean = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
  const pat = clean(pattern).split('/').filter(Boolean);
  const parts = clean(pathname).split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < pat.length; i++) {
    const seg = pat[i]!;
    if (seg === '*') {
      params['*'] = parts.slice(i).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return null;
      }
      params[seg.slice(1)] = value;
    } else if (seg !== part) {
      return null;
    }
  }
  return parts.length === pat.length ? params : null;
}

export function matchesAny(patterns: readonly string[], pathname: string): boolean {
  return patterns.some((p) => matchRoutePattern(p, pathname) !== null);
}
