// A browser as the benches need one (forged-reports.mjs, canary-rollback.mjs): its own loopback address (127.0.0.2,
// 127.0.0.3, …: Linux answers the whole 127/8, so each visitor is its own address to the per-address limits and to the
// count of distinct visitors), its cookie jar (what the site sets: the canary bucket), and what the shell does on a
// page: read the release of the blog it was given, ask for its page load's page-view token, send release reports.
import http from 'node:http';

export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** One request from `localAddress`; answers status, headers and body text. */
export function requestFrom(localAddress, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The blog's release in a page's inlined remotes map. */
export const blogOf = (html) => JSON.parse(/<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}').blog?.version;

/** The releases a page-view token names (its payload is base64url JSON; only the server can sign one). */
export const releasesOf = (token) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')).r;

/** A fresh visitor at `address` (no cookie yet) of the site at `base`, whose Origin is `origin`. */
export function visitor(base, address = '127.0.0.1', origin = base) {
  const jar = new Map();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const send = async (pathname, init = {}) => {
    const res = await requestFrom(address, `${base}${pathname}`, { ...init, headers: { 'user-agent': BROWSER_UA, ...(jar.size ? { cookie: cookie() } : {}), ...init.headers } });
    const set = res.headers['set-cookie'] ?? [];
    for (const line of set) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
    return res;
  };
  return {
    address,
    jar,
    /** Opens a page as a browser does; answers its status and the blog release it was given. */
    async open(page) {
      const res = await send(page, { headers: { accept: 'text/html' } });
      return { status: res.status, blog: blogOf(res.text) };
    },
    /** The page load's page-view token, as the shell asks for it (`GET /page-token.json`); null when refused. */
    async pageToken() {
      const res = await send('/page-token.json');
      return res.status === 200 ? JSON.parse(res.text).token : null;
    },
    /** A batch of events to POST /api/events (with `token` when given); answers how many the server recorded. */
    async report(events, token) {
      const res = await send('/api/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify(token === undefined ? { events } : { events, token }),
      });
      if (res.status !== 202) return { status: res.status, recorded: 0 };
      return { status: res.status, recorded: JSON.parse(res.text).recorded };
    },
  };
}

/** The shell's report of a remote that failed in the browser (its error boundary caught a render error). */
export const remoteError = (release, app = 'blog', message = 'TypeError: Cannot read properties of undefined') => ({
  name: 'remote_error',
  path: '/blog',
  props: { app, release, kind: 'render', message },
});
/** The shell's report of a move inside the site to a page of the remote. */
export const remoteView = (release, app = 'blog') => ({ name: 'remote_view', path: '/blog/a-post', props: { app, release } });
