import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server-lifecycle';
import { createAnalysisEngine } from '../src/analysis/analysis-service';

/*
 * Time of an analysis, 50 runs each, twice: the engine alone, and the whole server path (real HTTP on
 * loopback to createApp: validation, engine, storage in SQLite, JSON). Each HTTP run asks for another business or
 * URL, so the 24-hour cache never answers. Runs of the engine alone: an SMB analysis with simulation (no keys) and a website
 * analysis of a local page (127.0.0.1, test-only loopback allowance; listings simulated). Nothing leaves the machine.
 */

const RUNS = 50;
const PAGE = `<!doctype html><html><head><title>Blue Door Salon | Walnut Creek hair salon</title>
<meta name="description" content="Cuts, color and styling in downtown Walnut Creek. Book online in seconds, open six days a week.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="https://www.googletagmanager.com/gtm.js?id=GTM-ABCD12"></script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"HairSalon","name":"Blue Door Salon","telephone":"(925) 555-0142"}</script>
</head><body><h1>Blue Door Salon</h1><h2>Services</h2>${'<p>Precision cuts and color by experienced stylists. </p>'.repeat(60)}
<img src="a.jpg" alt="Salon"><a href="https://calendly.com/bluedoor">Book now</a><a href="tel:+19255550142">Call</a></body></html>`;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

async function main() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const engine = createAnalysisEngine({ website: { testOnlyAllowLoopback: true } });

  // Warm-up (JIT, module init) is not counted.
  await engine.analyzeSmb({ businessName: 'Warm Up Cafe', location: 'Danville, CA' });
  await engine.analyzeWebsite({ url, location: 'Walnut Creek, CA' });

  const smb: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await engine.analyzeSmb({ businessName: `Bench Business ${i} Salon`, location: 'Danville, CA' });
    smb.push(performance.now() - t);
  }
  const web: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await engine.analyzeWebsite({ url, location: 'Walnut Creek, CA' });
    web.push(performance.now() - t);
  }
  // The whole server path, over HTTP.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'analysis-bench-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_MULTIPLIER: '1000' });
  const app = await startServer(config, { analysis: { website: { testOnlyAllowLoopback: true } } });
  const api = `http://127.0.0.1:${app.port}`;
  const post = async (route: string, body: unknown) => {
    const t = performance.now();
    const res = await fetch(`${api}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { cached?: boolean };
    if (!res.ok || json.cached) throw new Error(`${route} answered ${res.status}${json.cached ? ' from cache' : ''}`);
    return performance.now() - t;
  };
  await post('/api/analyze-smb-business', { businessName: 'Warm Up Bakery', location: 'Danville, CA' });
  const smbHttp: number[] = [];
  for (let i = 0; i < RUNS; i++) smbHttp.push(await post('/api/analyze-smb-business', { businessName: `Http Bench ${i} Cafe`, location: 'San Ramon, CA' }));
  const webHttp: number[] = [];
  for (let i = 0; i < RUNS; i++) webHttp.push(await post('/api/analyze-website', { url: `${url}?page=${i}`, mode: 'website', location: 'Walnut Creek, CA' }));
  await app.close();
  await rm(dataDir, { recursive: true, force: true });

  server.close();
  const fmt = (s: ReturnType<typeof stats>) => `median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`;
  console.log(`Engine alone: SMB analysis with simulation, ${RUNS} runs: ${fmt(stats(smb))}`);
  console.log(`Engine alone: website analysis of a local page, ${RUNS} runs: ${fmt(stats(web))}`);
  console.log(`Over HTTP (createApp, SQLite): SMB analysis with simulation: ${fmt(stats(smbHttp))}`);
  console.log(`Over HTTP (createApp, SQLite): website analysis of a local page: ${fmt(stats(webHttp))}`);
}

void main();
