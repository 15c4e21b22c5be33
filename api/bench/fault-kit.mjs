// The pieces the fault suite (faults.mjs) stops and starts: a PostgreSQL cluster of its own (Debian's initdb/pg_ctl,
// run as the `postgres` user when we are root), a Redis of its own, an SMTP mailbox in this process that can refuse
// connections for a while, and server instances (`node api/dist/server.js`) on fixed ports with their output in files.
// Nothing here touches the machine's shared PostgreSQL or Redis.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const apiRequire = createRequire(path.join(here, '../package.json'));

/** A port nobody listens on right now (the OS's pick), or `preferred` when that one is free. */
export async function freePort(preferred = 0) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(undefined));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(s.address()?.port ?? port)));
    });
  if (preferred) {
    const got = await tryPort(preferred);
    if (got) return preferred;
  }
  for (;;) {
    const s = net.createServer();
    const port = await new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s.address().port));
    });
    await new Promise((resolve) => s.close(resolve));
    if (port) return port;
  }
}

/** The last `n` lines, each cut to 400 characters (a logged error object can be kilobytes on one line). */
const lastLines = (text, n) =>
  text
    .split('\n')
    .filter(Boolean)
    .slice(-n)
    .map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l))
    .join('\n');

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * The last `n` notable lines of a server log, short: a JSON log line becomes `level msg: err.message` (warnings and
 * worse), other lines (a crash's stack, "Site running at") stay as written; repeats are counted, not repeated.
 */
export function logDigest(text, n) {
  const lines = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim() || /^\s+at /.test(raw)) continue;
    let line = raw;
    if (raw.startsWith('{')) {
      try {
        const j = JSON.parse(raw);
        if (j.level < 40) continue;
        const err = j.err?.message ? `: ${j.err.code ? `${j.err.code} ` : ''}${j.err.message}` : '';
        line = `${LEVELS[j.level] ?? j.level} ${j.msg ?? ''}${err}`;
      } catch {
        // not JSON after all: kept as it is
      }
    }
    line = line.length > 300 ? `${line.slice(0, 300)}…` : line;
    const last = lines.at(-1);
    if (last && last.line === line) last.count += 1;
    else lines.push({ line, count: 1 });
  }
  return lines
    .slice(-n)
    .map((l) => `  ${l.line}${l.count > 1 ? ` (x${l.count})` : ''}`)
    .join('\n');
}

const APPS = ['shell', 'mfe-admin', 'mfe-analysis', 'mfe-blog', 'mfe-marketing'];

/**
 * A SITE_ROOT of one instance's own, as on a machine of its own: each app's built dist and dependencies linked from the
 * repository, its releases (copied there from the database) kept apart from the other instance's and from the repo's.
 */
export function makeSiteRoot(dir) {
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  for (const app of APPS) {
    mkdirSync(path.join(dir, app));
    for (const entry of ['dist', 'node_modules', 'package.json'])
      if (existsSync(path.join(root, app, entry))) symlinkSync(path.join(root, app, entry), path.join(dir, app, entry));
  }
  return dir;
}

/** Debian keeps each major version's tools in /usr/lib/postgresql/<major>/bin; the newest wins. */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((d) => existsSync(path.join(base, d, 'bin/pg_ctl'))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  if (!majors.length) throw new Error('no PostgreSQL server tools under /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)');
  return path.join(base, majors[0], 'bin');
}

/**
 * A private cluster in `dir` (made here), listening on 127.0.0.1:`port` and a socket in `dir`, trust auth. Root runs
 * the tools as `postgres` (the server refuses to run as root); anyone else runs them as themselves.
 */
export async function createPostgres(dir, port) {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    if (!Number.isInteger(uid)) throw new Error('running as root, but there is no `postgres` user to run the cluster as');
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const run = (tool, args) => {
    const cmd = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    const res = spawnSync(cmd[0], cmd[1], { encoding: 'utf8', cwd: dir });
    if (res.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${res.status}): ${res.stderr || res.stdout}`);
    return res.stdout;
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  let running = false;
  const cluster = {
    bin,
    port,
    url: (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    get running() {
      return running;
    },
    start() {
      run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start']);
      running = true;
    },
    /** `-m fast`: connections are ended, what is committed stays (a restart or a failover). */
    stop(mode = 'fast') {
      if (!existsSync(path.join(data, 'postmaster.pid'))) return void (running = false);
      run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    logTail: (n = 20) => (existsSync(log) ? lastLines(readFileSync(log, 'utf8'), n) : ''),
  };
  cluster.start();
  return cluster;
}

/** A Redis of its own on `port`, nothing saved; `stop` ends it (SIGTERM), `start` brings it back on the same port. */
export function createRedis(port) {
  let child;
  const redis = {
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c) => (out = (out + c).slice(-4000)));
      const deadline = Date.now() + 10_000;
      while (!/Ready to accept connections/.test(out)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start:\n${out}`);
        await sleep(20);
      }
    },
    async stop() {
      if (!redis.running) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    killNow: () => redis.running && child.kill('SIGKILL'),
  };
  return redis;
}

/**
 * The owner's mailbox: an SMTP server on `port` keeping every message (time, raw). `stop` closes the listener and
 * drops open connections, so the site's mailer meets "connection refused" until `start` listens again.
 */
export function createMailbox(port) {
  const { SMTPServer } = apiRequire('smtp-server');
  const received = [];
  let smtp;
  const sockets = new Set();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async start() {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            received.push({ at: performance.now(), raw: Buffer.concat(chunks).toString('utf8') });
            callback();
          });
        },
      });
      smtp.on('error', () => {});
      smtp.server.on('connection', (s) => {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      await new Promise((resolve, reject) => {
        smtp.server.once('error', reject);
        smtp.listen(port, '127.0.0.1', resolve);
      });
    },
    async stop() {
      if (!smtp) return;
      const closed = new Promise((resolve) => smtp.server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
      smtp = undefined;
    },
  };
}

/**
 * One server instance: `node api/dist/server.js` (run by `nodeBin`) on `port` with `env` (plus PATH), its output
 * appended to `logFile`.
 * `start` resolves once it listens; every exit is recorded (`exits`), marked expected when `kill` caused it.
 */
export function createInstance(name, port, env, logFile, nodeBin = process.execPath) {
  const log = createWriteStream(logFile, { flags: 'a' });
  // Each child carries its own `expected` flag: a restart must not make the exit of the one it replaces unexpected.
  let child;
  const inst = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    exits: [],
    /** How long each start took, spawn to listening (ms). */
    starts: [],
    onUnexpectedExit: undefined,
    get alive() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    get pid() {
      return child?.pid;
    },
    start(timeoutMs = 60_000) {
      log.write(`\n----- ${new Date().toISOString()} fault suite: starting ${name} on port ${port}\n`);
      child = spawn(nodeBin, [path.join(root, 'api/dist/server.js')], {
        cwd: root,
        env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const me = child;
      const spawnedAt = performance.now();
      me.expected = false;
      me.gone = new Promise((resolve) => me.once('exit', resolve));
      let out = '';
      const onData = (c) => {
        log.write(c);
        if (out.length < 100_000) out += c;
      };
      me.stdout.setEncoding('utf8').on('data', onData);
      me.stderr.setEncoding('utf8').on('data', onData);
      me.once('exit', (code, signal) => {
        const exit = { at: performance.now(), code, signal, expected: me.expected };
        inst.exits.push(exit);
        log.write(`\n----- ${new Date().toISOString()} fault suite: ${name} exited (${code ?? signal})${me.expected ? '' : ' UNEXPECTEDLY'}\n`);
        if (!exit.expected) inst.onUnexpectedExit?.(exit);
      });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} did not listen within ${timeoutMs / 1000} s:\n${lastLines(out, 30)}`)), timeoutMs);
        const check = () => {
          if (/Site running at http:\/\/\S+/.test(out)) {
            inst.starts.push(performance.now() - spawnedAt);
            clearTimeout(timer);
            me.stdout.off('data', check);
            resolve();
          }
        };
        me.stdout.on('data', check);
        me.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${lastLines(out, 30)}`));
        });
      });
    },
    /** Sends `signal` and waits for the exit; the exit counts as expected. */
    async kill(signal = 'SIGTERM', graceMs = 15_000) {
      if (!inst.alive) return;
      child.expected = true;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const timer = setTimeout(() => inst.alive && child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    /** SIGKILL; resolves when the process is gone (a supervisor restarts it only then). */
    killNow() {
      if (!inst.alive) return Promise.resolve();
      child.expected = true;
      child.kill('SIGKILL');
      return child.gone;
    },
    logTail: (n = 25) => (existsSync(logFile) ? logDigest(readFileSync(logFile, 'utf8'), n) : ''),
    closeLog: () => new Promise((resolve) => log.end(resolve)),
  };
  return inst;
}
