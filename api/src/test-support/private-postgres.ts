import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/*
 * A PostgreSQL cluster of a test's own (initdb + pg_ctl on a private port and directory), for drills that stop and
 * start the server: the machine's shared PostgreSQL is never touched. As root, the server runs as user `postgres`
 * (it refuses root). Trust authentication, loopback only, fsync off (a test's data need not survive a crash).
 */

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  dir: string;
  /** `pg_ctl stop` (`fast`: disconnects every client at once, what an operator's restart does; `immediate`: a crash). */
  stop(options?: { mode?: 'smart' | 'fast' | 'immediate' }): Promise<void>;
  /** Starts it again (same port and data). */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its directory. */
  destroy(): Promise<void>;
}

/** The directory of PostgreSQL's server binaries (Debian: /usr/lib/postgresql/<version>/bin), newest first; undefined when not installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)));
    });
  if (preferred) {
    if (await tryPort(preferred)) return preferred;
    throw new Error(`port ${preferred} is taken`);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 54329 + Math.floor(Math.random() * 2000);
    if (await tryPort(port)) return port;
  }
  throw new Error('no free port for a private PostgreSQL');
}

export async function startPrivatePostgres(options: { port?: number; dir?: string } = {}): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed under /usr/lib/postgresql');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'private-pg-')));
  if (asRoot) await chown(dir, ...(await postgresIds()));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const port = await freePort(options.port);
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: dir }) : run(path.join(bin, tool), args, { cwd: dir });

  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--no-instructions']).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = async ({ mode = 'fast' }: { mode?: 'smart' | 'fast' | 'immediate' } = {}) => {
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    stop,
    start,
    async destroy() {
      if (running) await stop({ mode: 'immediate' }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['postgres']);
  const uid = /uid=(\d+)/.exec(stdout)?.[1];
  const gid = /gid=(\d+)/.exec(stdout)?.[1];
  if (!uid || !gid) throw new Error('no user postgres to run a private PostgreSQL as');
  return [Number(uid), Number(gid)];
}
