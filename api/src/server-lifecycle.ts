import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp, type AppDeps, type AppInstance } from './app';
import type { Config } from './config';
import { lingerAfterEarlyAnswers, type BodyLinger } from './lib/lingering-close';
import { appsWithoutTrustedSignature, unsignedAppsMessage } from './site/releases/signing-gate';

/** How long a client answered 400/408/431 has to read the answer before its connection is closed. */
const CLIENT_ERROR_LINGER_MS = 500;

export interface RunningServer {
  server: http.Server;
  instance: AppInstance;
  /** The port actually bound (useful with PORT=0). */
  port: number;
  /**
   * Graceful stop: take no new work (readiness 503, no more outbox mails), refuse new connections, let requests in
   * flight finish, then close the database. Connections still open after `forceAfterMs` are cut. Idempotent.
   */
  close(): Promise<void>;
}

/** Builds the app and listens on `config.host:config.port`. Used by server.ts and by tests. */
export async function startServer(
  config: Config,
  deps: AppDeps = {},
  options: { forceAfterMs?: number; bodyLinger?: BodyLinger } = {},
): Promise<RunningServer> {
  const instance = await createApp(config, deps);
  // Issue 51: trusted keys that leave a served app unsigned would answer its pages "not built" while health said ok.
  // Refused here, naming each app and the command that signs them. (On PostgreSQL the shared store decides what is
  // served; this checks this machine's SITE_ROOT only.)
  if (!/^postgres(?:ql)?:/i.test(config.databaseUrl ?? '')) {
    const unsigned = await appsWithoutTrustedSignature(config.siteRoot, config.releaseTrustedKeys ?? []);
    if (unsigned.length > 0) {
      await instance.close();
      throw new Error(unsignedAppsMessage(unsigned));
    }
  }
  const server = http.createServer(
    {
      // Slow clients (slowloris): the header block and the whole request have deadlines (408 and closed after them),
      // checked this often; a body that goes silent is cut by requestBodyLimits (BODY_IDLE_TIMEOUT).
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(config.headersTimeoutMs / 4))),
    },
    instance.app.callback(),
  );
  // An answer sent before its request's body was read (a 413) stays readable: lib/lingering-close.ts.
  lingerAfterEarlyAnswers(server, options.bodyLinger);
  // Unparsable requests (garbage request lines, bad headers, oversized headers, timeouts) are the client's fault:
  // a warning, not an error, and an answer when the socket can still take one.
  server.on('clientError', (err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket) => {
    const code = err.code ?? 'unknown';
    if (code === 'ECONNRESET' || code === 'EPIPE') {
      socket.destroy();
      return;
    }
    instance.logger.warn({ code, bytesParsed: err.bytesParsed, remoteAddress: socket.remoteAddress }, 'bad request from a client');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    // `end` only closes our side: a client that never closes its own (and keeps writing) would hold the connection
    // for good. It gets a moment to read the answer, then the socket goes, as Node's default handler destroys it
    // (at once there, which can reset the connection before the answer is read).
    setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await instance.close();
    throw error;
  }

  const forceAfterMs = options.forceAfterMs ?? 10_000;
  let closing: Promise<void> | undefined;

  const close = () => {
    closing ??= (async () => {
      instance.drain();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets that finish their last request become idle: close them as they do.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), forceAfterMs);
      try {
        await stopped;
      } finally {
        clearInterval(sweep);
        clearTimeout(force);
      }
      await instance.close();
    })();
    return closing;
  };

  return { server, instance, port: (server.address() as AddressInfo).port, close };
}
