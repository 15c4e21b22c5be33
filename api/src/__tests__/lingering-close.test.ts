import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startServer, type RunningServer } from '../server-lifecycle';

let running: RunningServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await running?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  running = undefined;
  dataDir = undefined;
});

/** The app on a loopback port; `bodyLinger` short where a test waits for it to run out. */
async function start(bodyLinger?: { ms: number; maxBytes: number }): Promise<number> {
  dataDir = await mkdtemp(path.join(tmpdir(), 'api-linger-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_ROOT: dataDir, PUBLIC_ORIGIN: 'https://example.test', LOG_LEVEL: 'silent' });
  running = await startServer(config, {}, bodyLinger ? { bodyLinger } : {});
  return running.port;
}

async function open(port: number): Promise<Socket> {
  // A client as curl is one: the server's half-close does not end its own sending.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

interface Outcome {
  /** Everything the client read. */
  response: string;
  /** The socket error it saw, if any (EPIPE, ECONNRESET). */
  error?: string;
  /** Whether that error came before the whole answer (status line, headers, Content-Length bytes of body) was read. */
  errorBeforeAnswer: boolean;
  closed: Promise<void>;
}

function watch(socket: Socket): Outcome {
  const outcome: Outcome = { response: '', errorBeforeAnswer: false, closed: new Promise((resolve) => socket.once('close', () => resolve())) };
  const answered = () => {
    const end = outcome.response.indexOf('\r\n\r\n');
    const length = end < 0 ? null : /content-length: (\d+)/i.exec(outcome.response.slice(0, end));
    return length !== null && Buffer.byteLength(outcome.response.slice(end + 4)) >= Number(length[1]);
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (outcome.response += chunk));
  socket.on('error', (err: NodeJS.ErrnoException) => {
    outcome.error = err.code ?? err.message;
    outcome.errorBeforeAnswer = !answered();
  });
  return outcome;
}

/**
 * Sends `bytes` of body in 128 KiB pieces a couple of milliseconds apart, as over a real network (on loopback in one
 * go, the whole body is in before the server even answers, and nothing is left unread to reset the connection).
 */
async function sendBody(socket: Socket, bytes: number): Promise<void> {
  const piece = Buffer.alloc(128 * 1024, 0x20);
  for (let sent = 0; sent < bytes && !socket.destroyed; sent += piece.length) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const last = Math.min(piece.length, bytes - sent);
    if (!socket.write(piece.subarray(0, last))) {
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
  if (!socket.destroyed) socket.end();
}

const EVENTS_HEAD = 'POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
const THREE_MB = 3 * 1024 * 1024;

describe('an answer sent before the body is read reaches the client (lingering close)', () => {
  it('a 3 MB body refused by its Content-Length: the 413 is read whole, 20 times of 20, and no write fails', async () => {
    const port = await start();
    const failures: string[] = [];
    for (let i = 0; i < 20; i++) {
      const socket = await open(port);
      const outcome = watch(socket);
      socket.write(`${EVENTS_HEAD}Content-Length: ${THREE_MB}\r\n\r\n`);
      await sendBody(socket, THREE_MB);
      await outcome.closed;
      // Before, the server closed at once: the client's write failed (EPIPE) and it had read nothing, 3 tries of 3.
      if (!outcome.response.startsWith('HTTP/1.1 413') || outcome.error) failures.push(`try ${i + 1}: ${outcome.error ?? ''} ${outcome.response.slice(0, 40) || '(nothing read)'}`);
      else expect(outcome.response).toContain('"code":"payload_too_large"');
    }
    expect(failures).toEqual([]);
  });

  it('a chunked body refused once it passes the limit while being read: the 413 is read whole', async () => {
    const port = await start();
    for (let i = 0; i < 5; i++) {
      const socket = await open(port);
      const outcome = watch(socket);
      socket.write(`${EVENTS_HEAD}Transfer-Encoding: chunked\r\n\r\n`);
      const piece = `${(64 * 1024).toString(16)}\r\n${' '.repeat(64 * 1024)}\r\n`;
      for (let sent = 0; sent < THREE_MB && !socket.destroyed; sent += 64 * 1024) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
      await outcome.closed;
      expect(outcome.errorBeforeAnswer, outcome.error).toBe(false);
      expect(outcome.response).toMatch(/^HTTP\/1\.1 413 [\s\S]*"code":"payload_too_large"/);
    }
  });

  it('a client that stops sending is let go after the linger time, and one that sends too much after the byte cap', async () => {
    const port = await start({ ms: 300, maxBytes: 256 * 1024 });
    const connections = () => new Promise<number>((resolve, reject) => running!.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

    const silent = await open(port);
    const silentOutcome = watch(silent);
    silent.write(`${EVENTS_HEAD}Content-Length: ${THREE_MB}\r\n\r\n${' '.repeat(1024)}`);
    const started = Date.now();
    // The answer, then our half-close ('end'); the client neither sends more nor closes.
    await new Promise((resolve) => silent.once('end', resolve));
    expect(silentOutcome.response).toMatch(/^HTTP\/1\.1 413 [\s\S]*"code":"payload_too_large"/);
    expect(await connections()).toBe(1);
    while ((await connections()) > 0 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 25));
    // Held for the linger time (300 ms here), then let go.
    expect(await connections()).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    silent.destroy();

    const flood = await open(port);
    const floodOutcome = watch(flood);
    flood.write(`${EVENTS_HEAD}Content-Length: ${100 * THREE_MB}\r\n\r\n`);
    await sendBody(flood, 100 * THREE_MB);
    await floodOutcome.closed;
    // Cut long before the 300 MB it declared (the cap, plus what the kernel buffers held), after the answer was read.
    expect(floodOutcome.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(['EPIPE', 'ECONNRESET']).toContain(floodOutcome.error);
    expect(floodOutcome.errorBeforeAnswer).toBe(false);
    expect(flood.bytesWritten).toBeLessThan(30 * 1024 * 1024);
  });
});
