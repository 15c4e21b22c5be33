import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns/promises';
import zlib from 'node:zlib';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RefusedError } from '../../lib/domain-errors';
import { SpanKind, withSpan } from '../../lib/tracing';

/*
 * Server-side fetch of a visitor-supplied URL, safe against SSRF:
 * - http/https only, ports 80/443, no credentials in the URL;
 * - the host is resolved once and EVERY address must be global unicast (an allow-list, below); the socket then
 *   connects to the checked address through a pinned `lookup` (no second DNS lookup, so DNS rebinding cannot swap
 *   the target);
 * - redirects are followed by hand, at most 3, each hop checked again;
 * - one deadline for the whole fetch (10 s), a 2 MB body cap, HTML content types only (or, with `expect`, the
 *   types a caller asks for: the media library reads images through the same rules).
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The URL or one of its hops is not allowed (a domain refusal: the visitor sees the message, `reason` is the why). */
export class WebsiteRefusedError extends RefusedError {
  constructor(readonly reason: string) {
    super(`This website cannot be analyzed: ${reason}`, { code: 'website_refused' });
  }
}

/** The website could not be read (DNS failure, connection error, timeout, HTTP error). */
export class WebsiteUnreachableError extends Error {
  readonly code = 'WEBSITE_UNREACHABLE';
  constructor(message: string) {
    super(message);
    this.name = 'WebsiteUnreachableError';
  }
}

export interface FetchWebsiteOptions {
  resolver?: Resolver;
  /**
   * TEST ONLY: lets loopback addresses (on any port) through so tests can read local pages.
   * Production builds its options from config, which has no way to set this.
   */
  testOnlyAllowLoopback?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /**
   * What the answer may be, instead of an HTML page (the media library fetching an n8n post's image once): its
   * content types, the Accept header sent, and what the refusal calls it. The body is then in `raw` only.
   */
  expect?: { contentTypes: readonly string[]; accept: string; noun: string };
}

export interface FetchedPage {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  contentType: string;
  body: string;
  /** The body's bytes, undecoded (set instead of `body` when `expect` asked for something else than HTML). */
  raw?: Buffer;
  bytes: number;
  /** Time to the final response's headers, measured from the start (includes redirects). */
  responseTimeMs: number;
  totalTimeMs: number;
  redirects: string[];
}

export const WEBSITE_FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 3 } as const;
const USER_AGENT = 'EastBayAutomationAnalyzer/1.0 (+website analysis requested by a visitor)';
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/*
 * Which addresses may be fetched: an ALLOW-list of global unicast, not a deny-list of what a library labels special,
 * so an address no list foresaw (::7f00:1, fec0::1, 64:ff9b:1::/48 were all 'unicast' to ipaddr.js) is refused.
 * Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and the RFCs they list), the IPv4
 * Multicast and IPv6 Address Space registries (224.0.0.0/4, 240.0.0.0/4, fec0::/10, ff00::/8). A block is refused
 * even where IANA calls it globally reachable (192.0.0.9, 2001:1::1 anycast, 64:ff9b::/96): a visitor's website is
 * never there, and a translation prefix can lead back into a private network. The globally reachable special blocks
 * left out (AS112 192.31.196.0/24, 192.175.48.0/24, 2620:4f:8000::/48; AMT 192.52.193.0/24) are ordinary public hosts.
 */
const LOOPBACK = 'a loopback address';
const PRIVATE = 'a private network address';
const DOCUMENTATION = 'a reserved documentation address';

/** IPv4: everything is public unicast except these (first match names the refusal). */
const IPV4_REFUSED: ReadonlyArray<[cidr: string, why: string]> = [
  ['0.0.0.0/8', 'an unspecified address ("this network", 0.0.0.0/8)'], // RFC 791, RFC 1122
  ['10.0.0.0/8', PRIVATE], // RFC 1918
  ['100.64.0.0/10', 'a carrier-grade NAT address (100.64.0.0/10)'], // RFC 6598
  ['127.0.0.0/8', LOOPBACK], // RFC 1122
  ['169.254.0.0/16', 'a link-local address (169.254.0.0/16, cloud metadata)'], // RFC 3927
  ['172.16.0.0/12', PRIVATE], // RFC 1918
  ['192.0.0.0/24', 'a reserved IETF protocol address (192.0.0.0/24)'], // RFC 6890 (DS-Lite, NAT64 discovery, anycast)
  ['192.0.2.0/24', DOCUMENTATION], // RFC 5737 TEST-NET-1
  ['192.88.99.0/24', 'a reserved 6to4 relay address (192.88.99.0/24)'], // RFC 7526, deprecated
  ['192.168.0.0/16', PRIVATE], // RFC 1918
  ['198.18.0.0/15', 'a reserved benchmarking address (198.18.0.0/15)'], // RFC 2544
  ['198.51.100.0/24', DOCUMENTATION], // RFC 5737 TEST-NET-2
  ['203.0.113.0/24', DOCUMENTATION], // RFC 5737 TEST-NET-3
  ['224.0.0.0/4', 'a multicast address'], // RFC 5771
  ['255.255.255.255/32', 'a broadcast address'], // RFC 919, before 240/4 so it is named as what it is
  ['240.0.0.0/4', 'a reserved address (240.0.0.0/4)'], // RFC 1112
];

/** IPv6: only the global unicast block 2000::/3 (RFC 4291), minus the special-purpose blocks inside it. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV6_REFUSED_INSIDE_GLOBAL: ReadonlyArray<[cidr: string, why: string]> = [
  // IETF protocol assignments: Teredo 2001::/32 (RFC 4380), anycast, benchmarking 2001:2::/48, AMT, AS112, ORCHID.
  ['2001::/23', 'a reserved IETF protocol address (2001::/23, Teredo included)'], // RFC 2928
  ['2001:db8::/32', DOCUMENTATION], // RFC 3849
  ['2002::/16', 'a 6to4 IPv6 address (2002::/16)'], // RFC 3056
  ['3fff::/20', DOCUMENTATION], // RFC 9637
];
/** Outside 2000::/3 everything is refused; these only name the refusal. */
const IPV6_NAMED_OUTSIDE_GLOBAL: ReadonlyArray<[cidr: string, why: string]> = [
  ['::/128', 'an unspecified address (::)'], // RFC 4291 (::1 is caught as loopback first)
  ['64:ff9b::/96', 'a NAT64 IPv6 address (64:ff9b::/96)'], // RFC 6052
  ['64:ff9b:1::/48', 'a local-use NAT64 IPv6 address (64:ff9b:1::/48)'], // RFC 8215
  ['::/8', 'a reserved IPv6 address (::/8, IPv4-compatible and translated forms included)'], // RFC 4291
  ['100::/64', 'a reserved discard-only IPv6 address (100::/64)'], // RFC 6666
  ['fc00::/7', 'a unique local IPv6 address (fc00::/7)'], // RFC 4193
  ['fe80::/10', 'a link-local address (fe80::/10)'], // RFC 4291
  ['fec0::/10', 'a site-local IPv6 address (fec0::/10, private)'], // RFC 3879, deprecated
  ['ff00::/8', 'a multicast address'], // RFC 4291
];

const parsedV4 = IPV4_REFUSED.map(([cidr, why]) => [ipaddr.IPv4.parseCIDR(cidr), why] as const);
const parsedV6Inside = IPV6_REFUSED_INSIDE_GLOBAL.map(([cidr, why]) => [ipaddr.IPv6.parseCIDR(cidr), why] as const);
const parsedV6Outside = IPV6_NAMED_OUTSIDE_GLOBAL.map(([cidr, why]) => [ipaddr.IPv6.parseCIDR(cidr), why] as const);
const LOOPBACK_V4 = ipaddr.IPv4.parseCIDR('127.0.0.0/8');
const LOOPBACK_V6 = ipaddr.IPv6.parseCIDR('::1/128');

/** The address itself, or the IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) stands for. */
function effectiveAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

function isLoopback(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return ip.kind() === 'ipv4' ? (ip as ipaddr.IPv4).match(LOOPBACK_V4) : (ip as ipaddr.IPv6).match(LOOPBACK_V6);
}

/**
 * Why an address may not be fetched, or null when it is global unicast (see the lists above).
 * `allowLoopback` (tests only) lets 127.0.0.0/8 and ::1 through, nothing else.
 */
export function addressRefusal(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return 'an invalid address';
  const ip = effectiveAddress(address);
  if (isLoopback(ip)) return allowLoopback ? null : LOOPBACK;
  if (ip.kind() === 'ipv4') {
    const v4 = ip as ipaddr.IPv4;
    return parsedV4.find(([range]) => v4.match(range))?.[1] ?? null;
  }
  const v6 = ip as ipaddr.IPv6;
  if (v6.match(IPV6_GLOBAL_UNICAST)) return parsedV6Inside.find(([range]) => v6.match(range))?.[1] ?? null;
  return (
    parsedV6Outside.find(([range]) => v6.match(range))?.[1] ??
    'a reserved IPv6 address outside the global unicast range (2000::/3)'
  );
}

const defaultResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function refuse(message: string): never {
  throw new WebsiteRefusedError(message);
}

/** Parses and checks one URL, resolves its host and returns the address to connect to. */
export async function checkTarget(
  rawUrl: string,
  options: Pick<FetchWebsiteOptions, 'resolver' | 'testOnlyAllowLoopback'> = {},
  deadline?: Promise<never>,
): Promise<{ url: URL; pinned: ResolvedAddress; hostname: string; port: number }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse('The website address is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    refuse(`Only http and https websites can be analyzed (got ${url.protocol.replace(':', '')}).`);
  }
  if (url.username || url.password) refuse('Website addresses with a user name or password are not allowed.');
  let hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Trailing dots (an absolute name) by hand: /\.+$/ backtracks quadratically on a long run of dots.
  while (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  if (!hostname) refuse('The website address has no host.');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const allowLoopback = options.testOnlyAllowLoopback === true;

  if (port !== 80 && port !== 443 && !allowLoopback) refuse(`Only ports 80 and 443 are allowed (got ${port}).`);
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (!allowLoopback) refuse(`The website address points to ${LOOPBACK} (${hostname}), which is not allowed.`);
  }

  let addresses: ResolvedAddress[];
  const literal = ipaddr.isValid(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  } else {
    if (!/^[a-z0-9.-]+$/.test(hostname) || !hostname.includes('.') && hostname !== 'localhost') {
      refuse(`"${hostname}" is not a public host name.`);
    }
    const resolve = (options.resolver ?? defaultResolver)(hostname);
    try {
      addresses = await (deadline ? Promise.race([resolve, deadline]) : resolve);
    } catch (error) {
      if (error instanceof WebsiteRefusedError || error instanceof WebsiteUnreachableError) throw error;
      throw new WebsiteUnreachableError(`The host name ${hostname} could not be resolved.`);
    }
    if (addresses.length === 0) throw new WebsiteUnreachableError(`The host name ${hostname} could not be resolved.`);
  }

  for (const a of addresses) {
    const why = addressRefusal(a.address, allowLoopback);
    if (!why) continue;
    // A literal is what the visitor typed, so naming its range tells them nothing new. What a name resolves to is
    // ours: echoing it (or even its kind) would let anyone map internal DNS through this form.
    if (literal) refuse(`The website address ${hostname} is ${why}, which is not allowed.`);
    refuse(`The website address ${hostname} resolves to a private or reserved network address, which is not allowed.`);
  }
  const allLoopback = addresses.every((a) => isLoopback(effectiveAddress(a.address)));
  if (port !== 80 && port !== 443 && !(allowLoopback && allLoopback)) {
    refuse(`Only ports 80 and 443 are allowed (got ${port}).`);
  }
  return { url, pinned: addresses[0]!, hostname, port };
}

function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, opts: unknown, callback?: unknown) => {
    const cb = (typeof opts === 'function' ? opts : callback) as (...args: unknown[]) => void;
    const wantsAll = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all;
    if (wantsAll) cb(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

function charsetOf(contentType: string): string {
  const m = /charset=["']?([\w-]+)/i.exec(contentType);
  const label = m?.[1]?.toLowerCase() ?? 'utf-8';
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return 'utf-8';
  }
}

interface HopResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  location?: string;
  body?: Buffer;
  headersAt: number;
}

function requestOnce(
  target: { url: URL; pinned: ResolvedAddress; hostname: string; port: number },
  signal: AbortSignal,
  maxBytes: number,
  userAgent: string,
  expect: NonNullable<FetchWebsiteOptions['expect']> = { contentTypes: HTML_TYPES, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', noun: 'HTML pages' },
): Promise<HopResult> {
  return new Promise((resolve, reject) => {
    const isHttps = target.url.protocol === 'https:';
    const mod = isHttps ? https : http;
    const isIpLiteral = ipaddr.isValid(target.hostname);
    const req = mod.request(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(target.pinned),
        ...(isHttps && !isIpLiteral ? { servername: target.hostname } : {}),
        headers: {
          'User-Agent': userAgent,
          Accept: expect.accept,
          'Accept-Encoding': 'gzip, deflate, br',
        },
        signal,
      },
      (res) => {
        const headersAt = performance.now();
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ status, headers: res.headers, location: res.headers.location, headersAt });
          return;
        }
        const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
        if (status < 400 && !expect.contentTypes.some((t) => contentType.startsWith(t))) {
          res.destroy();
          reject(new WebsiteRefusedError(`Only ${expect.noun} can be ${expect.contentTypes === HTML_TYPES ? 'analyzed' : 'read'} (the server sent ${contentType || 'no content type'}).`));
          return;
        }
        const tooLarge = expect.contentTypes === HTML_TYPES ? 'The page is larger than 2 MB, the most we read.' : `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most we read.`;
        const declared = Number(res.headers['content-length']);
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          reject(new WebsiteRefusedError(tooLarge));
          return;
        }
        let stream: NodeJS.ReadableStream = res;
        if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
        else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
        else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new WebsiteRefusedError(tooLarge));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), headersAt }));
        stream.on('error', (e: Error) => reject(new WebsiteUnreachableError(`Reading the page failed: ${e.message}`)));
        res.on('error', (e: Error) => reject(new WebsiteUnreachableError(`Reading the page failed: ${e.message}`)));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(new WebsiteUnreachableError('The website did not answer within 10 seconds.'));
      else reject(new WebsiteUnreachableError(`The website could not be reached (${e.code ?? e.message}).`));
    });
    req.end();
  });
}

/** Fetches one HTML page under the SSRF rules above. Throws WebsiteRefusedError or WebsiteUnreachableError. */
export function fetchWebsite(rawUrl: string, options: FetchWebsiteOptions = {}): Promise<FetchedPage> {
  // The span names the site's host only: the path is the visitor's.
  let host: string | undefined;
  try {
    host = new URL(rawUrl).hostname;
  } catch {
    // Refused by fetchOnce with its own message.
  }
  return withSpan('analysis fetch website', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'GET', ...(host ? { 'server.address': host } : {}) } }, async (span) => {
    const page = await fetchOnce(rawUrl, options);
    span?.setAttributes({ 'http.response.status_code': page.status, 'analysis.redirects': page.redirects.length });
    return page;
  });
}

async function fetchOnce(rawUrl: string, options: FetchWebsiteOptions): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? WEBSITE_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? WEBSITE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? WEBSITE_FETCH_DEFAULTS.maxRedirects;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new WebsiteUnreachableError(`The website did not answer within ${Math.round(timeoutMs / 1000)} seconds.`));
    }, timeoutMs);
  });
  deadline.catch(() => undefined);
  const started = performance.now();
  const redirects: string[] = [];
  try {
    let current = rawUrl;
    for (let hop = 0; ; hop++) {
      const target = await checkTarget(current, options, deadline);
      const result = await Promise.race([
        requestOnce(target, controller.signal, maxBytes, options.userAgent ?? USER_AGENT, options.expect),
        deadline,
      ]);
      if (result.location !== undefined) {
        if (hop >= maxRedirects) refuse(`The website redirected more than ${maxRedirects} times.`);
        let next: string;
        try {
          next = new URL(result.location, target.url).toString();
        } catch {
          throw new WebsiteUnreachableError('The website sent an invalid redirect.');
        }
        redirects.push(next);
        current = next;
        continue;
      }
      if (result.status >= 400) throw new WebsiteUnreachableError(`The website answered HTTP ${result.status}.`);
      const contentType = String(result.headers['content-type'] ?? '');
      const body = options.expect ? '' : new TextDecoder(charsetOf(contentType)).decode(result.body ?? Buffer.alloc(0));
      return {
        requestedUrl: rawUrl,
        finalUrl: target.url.toString(),
        status: result.status,
        headers: result.headers,
        contentType,
        body,
        ...(options.expect ? { raw: result.body ?? Buffer.alloc(0) } : {}),
        bytes: result.body?.length ?? 0,
        responseTimeMs: Math.round(result.headersAt - started),
        totalTimeMs: Math.round(performance.now() - started),
        redirects,
      };
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
