import http from 'node:http';
import https from 'node:https';
import { SpanKind, SpanStatusCode, withSpan } from '../lib/tracing';

/** What one POST to a receiver came to. */
export type SendResult =
  | { kind: 'answered'; status: number; latencyMs: number; excerpt: string; retryAfterMs: number | undefined }
  | { kind: 'network'; error: string; latencyMs: number };

export interface WebhookSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
}

export interface WebhookSenderOptions {
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxResponseBytes?: number;
  now?: () => number;
}

/** Seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Posts with node:http(s): the owner's endpoints may be on the private network (n8n beside the site), so unlike the
 * analysis's website fetcher no address is refused; only http(s), no redirect followed (a 3xx is an answer, not a
 * delivery), connect and total timeouts, and at most `maxResponseBytes` of the answer read (the rest is dropped).
 */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 4096;
  const now = options.now ?? (() => performance.now());

  return {
    post(url, body, headers) {
      return withSpan('webhook POST', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST' } }, async (span) => {
        const result = await send(url, body, headers);
        if (span) {
          try {
            const target = new URL(url);
            span.setAttributes({ 'server.address': target.hostname, 'url.scheme': target.protocol.slice(0, -1) });
          } catch {
            // An invalid URL: the result says so.
          }
          if (result.kind === 'answered') span.setAttribute('http.response.status_code', result.status);
          else span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
        }
        return result;
      });
    },
  };

  function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = now();
    const elapsed = () => Math.round(now() - started);
    return new Promise<SendResult>((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        resolve({ kind: 'network', error: 'Invalid URL', latencyMs: 0 });
        return;
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        resolve({ kind: 'network', error: `Unsupported protocol ${target.protocol}`, latencyMs: 0 });
        return;
      }
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
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const total = setTimeout(() => {
        req.destroy();
        finish({ kind: 'network', error: `Timed out after ${totalTimeoutMs} ms`, latencyMs: elapsed() });
      }, totalTimeoutMs);
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
