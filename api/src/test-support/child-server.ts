import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { missingFiles } from './built-site';

/** The built server (`npx pnpm@10.34.9 --filter api build`), run exactly as in production. */
export const SERVER_BUNDLE = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

/** `undefined` when api/dist/server.js is built, else what is missing (for `describeNeedingBuild`). */
export const bundleMissing = () => missingFiles(['api/dist/server.js']);

export interface ChildServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  process: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit (SIGKILL after `graceMs` if it is still alive). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node api/dist/server.js` on an ephemeral loopback port with only the given environment (plus PATH), and
 * resolves once it listens. The port is read from its "Site running at" line.
 */
export async function startChildServer(env: Record<string, string | undefined>, options: { timeoutMs?: number } = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start within ${options.timeoutMs ?? 20_000} ms:\n${output}`));
    }, options.timeoutMs ?? 20_000);
    const onData = () => {
      const m = /Site running at http:\/\/localhost:(\d+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(Number(m[1]));
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** TEST_REDIS_URL (default redis://127.0.0.1:6379) when a Redis answers PING there within a second, else undefined. */
export async function reachableRedis(): Promise<string | undefined> {
  const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG' ? url : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/**
 * A Redis key prefix of a test run's own (REDIS_KEY_PREFIX for the servers it starts), so its keys meet no one else's;
 * `forgetRedisKeys` removes exactly those at the end. Never FLUSHDB: the database is not the test's.
 */
export const redisTestPrefix = (name: string) => `site-test:${name}:`;

/** Deletes every key that starts with `prefix` (SCAN, not KEYS: Redis keeps answering others meanwhile). */
export async function forgetRedisKeys(url: string, prefix: string): Promise<number> {
  if (!/^site-test:[\w-]+:$/.test(prefix)) throw new Error(`${prefix} is not a test prefix`);
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  let deleted = 0;
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return deleted;
}

/** A DATABASE_URL whose connections work in `schema` (created by the caller). */
export function postgresUrlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
