import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, statSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './env';

/**
 * A loopback port nothing listens on, chosen by the OS (listen on port 0, read the port, close). For a server that
 * must know its address before it starts (its PUBLIC_ORIGIN, a remote's URL given to another server); a server we
 * start in this process listens on port 0 itself.
 */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Whether `url` answers (any status below 500) within `timeoutMs`, or `gaveUp()` says to stop waiting. */
async function answers(url: string, timeoutMs: number, gaveUp: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!gaveUp()) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return true;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export type RunningServer = { url: string; port: number; stop: () => Promise<void> };

/** Extra environment for a server, or a function of the URL it will have (for PUBLIC_ORIGIN and the like). */
export type ServerEnv = Record<string, string> | ((url: string) => Record<string, string>);

/**
 * Starts another production server (api/dist/server.js) on a loopback port from the OS, with extra environment.
 * The port is free when chosen; should something take it before the server listens, the server exits and another
 * port is tried.
 */
export async function startSiteServer(env: ServerEnv = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'site-e2e-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'api/dist/server.js')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The build under test is served (imported as a release when it changed), as `npm start` does.
        RELEASE_IMPORT_BUILDS: 'changed',
        ...(typeof env === 'function' ? env(url) : env),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const stop = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    try {
      if (await answers(`${url}/api/health`, 30_000, () => child.exitCode !== null)) return { url, port, stop };
    } catch (error) {
      await stop();
      throw error;
    }
    if (attempt === 3) throw new Error(`the server exited with code ${child.exitCode} before answering on ${url}, three times`);
  }
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.html': 'text/html' };

/**
 * A bare static host for one remote's dist under /mfe/<name>/ with CORS, like a CDN would be. It listens on `port`
 * when given (an address handed out before the host is up, from `freePort()`), else on a port from the OS.
 */
export async function startRemoteHost(name: string, distDir: string, port = 0): Promise<RunningServer> {
  const prefix = `/mfe/${name}/`;
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(distDir, pathname.slice(prefix.length));
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (!pathname.startsWith(prefix) || !file.startsWith(distDir) || !existsSync(file) || !statSync(file).isFile()) {
      res.statusCode = 404;
      return res.end('not found');
    }
    res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
