import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { traceparentForSend } from '../lib/request-context';
import { TRACEPARENT_HEADER } from '../lib/trace-context';
import { SpanKind, SpanStatusCode, withSpan } from '../lib/tracing';
import { checkTarget, systemResolver, type ResolvedAddress, type Resolver } from './webhook-targets';

/** What one POST to a receiver came to. */
export type SendResult =
  | { kind: 'answered'; status: number; latencyMs: number; excerpt: string; retryAfterMs: number | undefined }
  | { kind: 'network'; error: string; latencyMs: number }
  /** Not sent: the target is never a webhook's (metadata), or private while private targets are off. Not retried. */
  | { kind: 'refused'; reason: string; latencyMs: number };

export interface WebhookSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
}

export interface WebhookSenderOptions {
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxResponseBytes?: number;
  now?: () => number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback and private-network receivers (n8n beside the site). Off by default. */
  allowPrivateTargets?: boolean;
  /** Resolves a host name to its addresses (the system's DNS by default; tests give their own, never real DNS). */
  resolver?: Resolver;
}

/** Seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** A socket lookup that answers the checked addresses only: no second DNS query, so no other address is reached. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, opts: unknown, callback?: unknown) => {
    const cb = (typeof opts === 'function' ? opts : callback) as (...args: unknown[]) => void;
    const wantsAll = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all;
    if (wantsAll) cb(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else cb(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
}

/**
 * Posts with node:http(s). The host is resolved once and every address checked (webhook-targets.ts): link-local and
 * cloud metadata addresses are refused always, private and loopback ones unless `allowPrivateTargets` (the owner's
 * n8n on the same network); the socket then connects to a checked address through a pinned lookup (TLS still checks
 * the certificate against the host name). Only http(s), no redirect followed (a 3xx is an answer, not a delivery),
 * connect and total timeouts (the lookup included), and at most `maxResponseBytes` of the answer read. Each POST
 * carries a W3C `traceparent`: the trace of the request that queued it, with a span id of this send's own.
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 4096;
  const now = options.now ?? (() => performance.now());
  const allowPrivate = options.allowPrivateTargets === true;
  const resolver = options.resolver ?? systemResolver;

  return {
    post(url, body, headers) {
      return withSpan('webhook POST', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST' } }, async (span) => {
        const traceparent = traceparentForSend(span);
        const result = await send(url, body, traceparent ? { ...headers, [TRACEPARENT_HEADER]: traceparent } : headers);
        if (span) {
          try {
            const target = new URL(url);
            span.setAttributes({ 'server.address': target.hostname, 'url.scheme': target.protocol.slice(0, -1) });
          } catch {
            // An invalid URL: the result says so.
          }
          if (result.kind === 'answered') span.setAttribute('http.response.status_code', result.status);
          else span.setStatus({ code: SpanStatusCode.ERROR, message: result.kind === 'network' ? result.error : result.reason });
        }
        return result;
      });
    },
  };

  async function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = now();
    const elapsed = () => Math.round(now() - started);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { kind: 'network', error: 'Invalid URL', latencyMs: 0 };
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      return { kind: 'network', error: `Unsupported protocol ${target.protocol}`, latencyMs: 0 };
    }
    let lookupTimer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (lookupTimer = setTimeout(() => resolve('timeout'), totalTimeoutMs)));
    let checked: Awaited<ReturnType<typeof checkTarget>> | 'timeout';
    try {
      checked = await Promise.race([checkTarget(target.hostname, { allowPrivate, resolver }), timedOut]);
    } catch (error) {
      return { kind: 'network', error: `Could not resolve ${target.hostname}: ${error instanceof Error ? error.message : String(error)}`, latencyMs: elapsed() };
    } finally {
      clearTimeout(lookupTimer);
    }
    if (checked === 'timeout') return { kind: 'network', error: `Timed out after ${totalTimeoutMs} ms`, latencyMs: elapsed() };
    if (!checked.ok) return { kind: 'refused', reason: checked.reason, latencyMs: elapsed() };
    const addresses = checked.addresses;
    const remainingMs = Math.max(1, totalTimeoutMs - elapsed());
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        clearTimeout(connect);
        resolve(result);
      };
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(target, {
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(addresses),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const total = setTimeout(() => {
        req.destroy();
        finish({ kind: 'network', error: `Timed out after ${totalTimeoutMs} ms`, latencyMs: elapsed() });
      }, remainingMs);
      const connect = setTimeout(() => {
        req.destroy();
        finish({ kind: 'network', error: `Could not connect within ${connectTimeoutMs} ms`, latencyMs: elapsed() });
      }, connectTimeoutMs);
      req.on('socket', (socket) => {
        const connected = () => clearTimeout(connect);
        if (!socket.connecting) connected();
        socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
      });
      req.on('error', (err) => finish({ kind: 'network', error: err.message || String(err), latencyMs: elapsed() }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'];
          finish({
            kind: 'answered',
            status,
            latencyMs: elapsed(),
            excerpt: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'),
            retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now()),
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= maxBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: the rest of a large answer is not downloaded.
          if (size >= maxBytes) done();
        });
        res.on('end', done);
        res.on('error', done);
        res.on('aborted', done);
      });
      req.end(body);
    });
  }
}
