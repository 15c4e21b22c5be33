/**
 * A development override (issue 52) runs a developer's build of one remote on this page. The admin must never log in
 * next to that code, and the server serves the admin's pages without the override, so the shell opens them with a full
 * page load while one is on. The page knows it is on from the banner the server puts first in <body> (outside #root).
 */

/** The path this page was loaded at when the server served it with a development override; undefined otherwise. */
export function devOverrideInPage(doc: Document = document): { loadedAt: string } | undefined {
  // Read once at start (main.tsx), before any remote's code has run and could touch the banner.
  return doc.getElementById('dev-override') ? { loadedAt: doc.location.pathname } : undefined;
}

/**
 * Whether the shell must leave this page for `pathname` with a full load: an override is on and the admin owns the
 * path. Never for the path the page was loaded at: a server that served the admin with an override would otherwise
 * have the page reload itself forever.
 */
export function needsFullLoad(override: { loadedAt: string } | undefined, owner: string | null, pathname: string): boolean {
  return Boolean(override) && owner === 'admin' && pathname !== override!.loadedAt;
}
