import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps, type AppInstance } from './app';
import type { Config } from './config';

export interface RunningServer {
  server: http.Server;
  instance: AppInstance;
  /** The port actually bound (useful with PORT=0). */
  port: number;
  /**
   * Graceful stop: refuse new connections, let requests in flight finish, then close the database.
   * Connections still open after `forceAfterMs` are cut. Idempotent.
   */
  close(): Promise<void>;
}

/** Builds the app and listens on `config.host:config.port`. Used by server.ts and by tests. */
export async function startServer(
  config: Config,
  deps: AppDeps = {},
  options: { forceAfterMs?: number } = {},
): Promise<RunningServer> {
  const instance = await createApp(config, deps);
  const server = http.createServer(instance.app.callback());

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
