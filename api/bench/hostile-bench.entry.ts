import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hostilePages, largeOrdinaryPage } from '../src/test-support/hostile-pages';

/*
 * Each hostile page of the reliability test (and a large ordinary one), analysed by the built server in its own
 * process while a client polls /api/health/live every 10 ms: prints how long the analysis took and how long health
 * waited (p50 and max). Loopback only; each analysis is cut off by the client after --timeout seconds, and the
 * server process is killed at the end, so a server that would take hours (before issue 19) still ends the run.
 */

const { values } = parseArgs({
  options: {
    bytes: { type: 'string', default: String(2 * 1024 * 1024 - 4096) },
    timeout: { type: 'string', default: '60' },
    server: { type: 'string', default: path.resolve(import.meta.dirname ?? '.', '../dist/server.js') },
  },
});
const bytes = Number(values.bytes);
const timeoutMs = Number(values.timeout) * 1000;

async function startServer(dataDir: string) {
  const child = spawn(process.execPath, [values.server!], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1', RATE_LIMIT_MULTIPLIER: '1000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /Site running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

function percentile(sorted: number[], q: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;
}

async function main() {
  const pages = [...hostilePages(bytes), { name: 'ordinary page', html: largeOrdinaryPage(bytes) }].map((p) => ({ ...p, body: Buffer.from(p.html) }));
  const site = http.createServer((req, res) => {
    const i = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages[i]?.body ?? '<title>warm</title>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const sitePort = (site.address() as AddressInfo).port;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hostile-bench-'));
  let server = await startServer(dataDir);
  const analyze = (url: string) =>
    fetch(`${server.url}/api/analyze-website`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, mode: 'website' }),
      signal: AbortSignal.timeout(timeoutMs),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { dataSources?: { website?: string } } }));
  await analyze(`http://127.0.0.1:${sitePort}/warm`);

  console.log(`Page size ${bytes} bytes; server ${values.server}; client timeout ${timeoutMs / 1000} s`);
  console.log('page'.padEnd(44), 'analysis ms'.padStart(12), 'website'.padStart(9), 'health p50'.padStart(11), 'health max'.padStart(11), 'polls'.padStart(6));
  for (const [i, page] of pages.entries()) {
    const waits: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const t = performance.now();
        try {
          await (await fetch(`${server.url}/api/health/live`, { signal: AbortSignal.timeout(timeoutMs + 5000) })).arrayBuffer();
        } catch {
          // counted as the whole wait
        }
        waits.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const t = performance.now();
    let outcome: string;
    try {
      const { status, body } = await analyze(`http://127.0.0.1:${sitePort}/p/${i}?run=${Date.now()}`);
      outcome = status === 200 ? (body.dataSources?.website ?? '?') : `HTTP ${status}`;
    } catch {
      outcome = 'timed out';
    }
    const took = performance.now() - t;
    polling = false;
    await poller;
    const sorted = [...waits].sort((a, b) => a - b);
    console.log(
      page.name.padEnd(44),
      took.toFixed(0).padStart(12),
      outcome.padStart(9),
      percentile(sorted, 0.5).toFixed(1).padStart(11),
      (sorted.at(-1) ?? NaN).toFixed(1).padStart(11),
      String(sorted.length).padStart(6),
    );
    if (outcome === 'timed out') {
      // The old server is still stuck in that page: start a fresh one for the next.
      server.child.kill('SIGKILL');
      server = await startServer(dataDir);
      await analyze(`http://127.0.0.1:${sitePort}/warm`);
    }
  }
  server.child.kill('SIGKILL');
  site.close();
  await rm(dataDir, { recursive: true, force: true });
}

void main();
