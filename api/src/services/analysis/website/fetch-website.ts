import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns/promises';
import zlib from 'node:zlib';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RefusedError } from '../../../lib/domain-errors';

/*
 * Server-side fetch of a visitor-supplied URL, safe against SSRF:
 * - http/https only, ports 80/443, no credentials in the URL;
 * - the host is resolved once and EVERY address must be public unicast; the socket then connects to the checked
 *   address through a pinned `lookup` (no second DNS lookup, so DNS rebinding cannot swap the target);
 * - redirects are followed by hand, at most 3, each hop checked again;
 * - one deadline for the whole fetch (10 s), a 2 MB body cap, HTML content types only.
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
}

export interface FetchedPage {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  contentType: string;
  body: string;
  bytes: number;
  /** Time to the final response's headers, measured from the start (includes redirects). */
  responseTimeMs: number;
  totalTimeMs: number;
  redirects: string[];
}

export const WEBSITE_FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 3 } as const;
const USER_AGENT = 'EastBayAutomationAnalyzer/1.0 (+website analysis requested by a visitor)';
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8 or ::)',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (169.254.0.0/16, fe80::/10, cloud metadata)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private network address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique local IPv6 address (fc00::/7)',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 IPv6 address',
  '6to4': 'a 6to4 IPv6 address',
  teredo: 'a Teredo IPv6 address',
};

/**
 * Why an address may not be fetched, or null when it is public unicast.
 * Only ipaddr.js's 'unicast' range passes; every special range (including ones embedding IPv4) is refused.
 */
export function addressRefusal(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return 'an invalid address';
  const ip = ipaddr.parse(address);
  const range = ip.range();
  if (range === 'unicast') {
    // Belt and braces: ipaddr files 0.0.0.0/8 as 'unspecified', but never let it through as unicast.
    if (ip.kind() === 'ipv4' && (ip as ipaddr.IPv4).octets[0] === 0) return RANGE_NAMES.unspecified!;
    return null;
  }
  if (range === 'loopback' && allowLoopback) return null;
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
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
  const hostname = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  if (!hostname) refuse('The website address has no host.');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const allowLoopback = options.testOnlyAllowLoopback === true;

  if (port !== 80 && port !== 443 && !allowLoopback) refuse(`Only ports 80 and 443 are allowed (got ${port}).`);
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (!allowLoopback) refuse(`The website address points to ${RANGE_NAMES.loopback} (${hostname}), which is not allowed.`);
  }

  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(hostname)) {
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
    if (why) refuse(`The website address ${hostname} resolves to ${why} (${a.address}), which is not allowed.`);
  }
  const allLoopback = addresses.every((a) => ipaddr.parse(a.address).range() === 'loopback');
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
          Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
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
        if (status < 400 && !HTML_TYPES.some((t) => contentType.startsWith(t))) {
          res.destroy();
          reject(new WebsiteRefusedError(`Only HTML pages can be analyzed (the server sent ${contentType || 'no content type'}).`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          reject(new WebsiteRefusedError('The page is larger than 2 MB, the most we read.'));
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
            reject(new WebsiteRefusedError('The page is larger than 2 MB, the most we read.'));
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
export async function fetchWebsite(rawUrl: string, options: FetchWebsiteOptions = {}): Promise<FetchedPage> {
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
        requestOnce(target, controller.signal, maxBytes, options.userAgent ?? USER_AGENT),
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
      const body = new TextDecoder(charsetOf(contentType)).decode(result.body ?? Buffer.alloc(0));
      return {
        requestedUrl: rawUrl,
        finalUrl: target.url.toString(),
        status: result.status,
        headers: result.headers,
        contentType,
        body,
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
