// What one input can do to everyone else (issue 32): with the server started in a child process of its own, runs in turn
//   1. the leads CSV export of --leads messages (100,000 by default), gzip;
//   2. four of the largest images the upload accepts, sent at once (a 1600 x 16,000 noise JPEG like the outside
//      review's, a 7,000 x 7,000 JPEG, a 16,383 x 3,000 PNG and a 5,000 x 10,000 WebP: each under 50 megapixels,
//      16,383 pixels a side and 10 MB), until all their variants are made;
//   3. a GIF of 20,000 frames (refused from its header);
// and prints for each: how long it took, /api/health/live p50 / p99 / max while it ran (a call every 20 ms), and the
// server's RSS before, at its peak, and 5 s after (the target: live p99 <= 100 ms, RSS back within 100 MB).
//   node api/bench/stall.mjs [--leads 100000] [--built]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
// @ts-expect-error -- plain JavaScript shared by the benches
import { login, probeLive, quantile, rssMb, sampleRss, seedLeads, startServer } from './bench-kit.mjs';
import { tinyFramesGif } from '../src/test-support/media-fixtures';

const { values: args } = parseArgs({ options: { leads: { type: 'string', default: '100000' }, built: { type: 'boolean', default: false } } });
const LEADS = Math.max(1, Number(args.leads) || 100_000);
const PASSWORD = 'stall-bench admin password';
const ORIGIN = 'http://127.0.0.1';

const noise = (width: number, height: number, sigma: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3a6', noise: { type: 'gaussian', mean: 128, sigma } } });

/** The four largest images, made once before the server starts (seconds each). */
async function largestImages(): Promise<Array<{ name: string; type: string; bytes: Buffer }>> {
  const images = [
    { name: 'tall-noise.jpg', type: 'image/jpeg', bytes: await noise(1600, 16_000, 40).jpeg({ quality: 50 }).toBuffer() },
    { name: 'big.jpg', type: 'image/jpeg', bytes: await noise(7000, 7000, 6).blur(3).jpeg({ quality: 80 }).toBuffer() },
    { name: 'wide.png', type: 'image/png', bytes: await sharp({ create: { width: 16_383, height: 3000, channels: 3, background: '#0a6' } }).png().toBuffer() },
    { name: 'large.webp', type: 'image/webp', bytes: await noise(5000, 10_000, 8).blur(2).webp({ quality: 70 }).toBuffer() },
  ];
  for (const image of images) if (image.bytes.length > 10 * 1024 * 1024) throw new Error(`${image.name} is ${image.bytes.length} bytes, over the upload limit`);
  return images;
}

async function upload(base: string, cookie: string, image: { name: string; type: string; bytes: Buffer }) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name);
  const res = await fetch(`${base}/api/admin/media`, { method: 'POST', headers: { origin: ORIGIN, cookie }, body: form });
  return { status: res.status, json: (await res.json()) as { id?: string; state?: string; error?: { code: string } } };
}

async function untilProcessed(base: string, cookie: string, ids: string[]): Promise<string[]> {
  for (;;) {
    const states = await Promise.all(ids.map(async (id) => ((await (await fetch(`${base}/api/admin/media/${id}`, { headers: { cookie } })).json()) as { state: string }).state));
    if (states.every((s) => s !== 'processing')) return states;
    await sleep(200);
  }
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'stall-bench-'));
const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_ROOT: dataDir, PUBLIC_ORIGIN: ORIGIN, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', ...(process.env.BENCH_MALLOC ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC } : {}) };
let server: ReturnType<typeof startServer> | undefined;
try {
  const making = performance.now();
  const images = await largestImages();
  const gif = tinyFramesGif(20_000);
  console.log(`made the inputs in ${Math.round(performance.now() - making)} ms: ${images.map((i) => `${i.name} ${(i.bytes.length / 1e6).toFixed(1)} MB`).join(', ')}, frames.gif ${(gif.length / 1e3).toFixed(0)} KB`);
  server = startServer(env, { built: args.built });
  await server.url;
  await server.stop();
  seedLeads(path.join(dataDir, 'site.db'), LEADS);
  server = startServer(env, { built: args.built });
  const base: string = await server.url;
  const pid: number = server.child.pid;
  const cookie: string = await login(base, PASSWORD, ORIGIN);
  // Warm-up: the code paths (a small export, one small upload), then the idle liveness for reference.
  await (await fetch(`${base}/api/admin/leads/export.csv?q=visitor1234567`, { headers: { cookie } })).arrayBuffer();
  const small = await upload(base, cookie, { name: 'warm.png', type: 'image/png', bytes: await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer() });
  await untilProcessed(base, cookie, [small.json.id!]);
  const idle = probeLive(base);
  await sleep(2000);
  const idleLive: number[] = await idle();
  console.log(`idle /api/health/live: p50 ${quantile(idleLive, 0.5).toFixed(1)} ms, p99 ${quantile(idleLive, 0.99).toFixed(1)} ms (${idleLive.length} calls)\n`);

  const scenarios: Array<[string, () => Promise<string>]> = [
    [
      `leads CSV export, ${LEADS.toLocaleString('en-US')} rows, gzip`,
      async () => {
        const res = await fetch(`${base}/api/admin/leads/export.csv`, { headers: { cookie, 'accept-encoding': 'gzip' } });
        const bytes = (await res.arrayBuffer()).byteLength;
        return `${res.status}, ${(bytes / 1e6).toFixed(1)} MB`;
      },
    ],
    [
      'four largest images at once, until their variants are made',
      async () => {
        const answers = await Promise.all(images.map((image) => upload(base, cookie, image)));
        const states = await untilProcessed(base, cookie, answers.map((a) => a.json.id!));
        return `${answers.map((a) => a.status).join(' ')} -> ${states.join(' ')}`;
      },
    ],
    [
      'a GIF of 20,000 frames',
      async () => {
        const answer = await upload(base, cookie, { name: 'frames.gif', type: 'image/gif', bytes: gif });
        return `${answer.status} ${answer.json.error?.code ?? answer.json.state}`;
      },
    ],
  ];
  console.log('| what | answer | seconds | /api/health/live p50 / p99 / max ms (calls) | RSS MB before / peak / 5 s after (after - before) |');
  console.log('|---|---|---|---|---|');
  for (const [name, run] of scenarios) {
    await sleep(1000);
    const before: number = await rssMb(pid);
    const stopRss = sampleRss(pid);
    const stopLive = probeLive(base);
    const started = performance.now();
    const answer = await run();
    const seconds = (performance.now() - started) / 1000;
    const live: number[] = await stopLive();
    const peak: number = await stopRss();
    await sleep(5000);
    const after: number = await rssMb(pid);
    console.log(
      `| ${name} | ${answer} | ${seconds.toFixed(1)} | ${quantile(live, 0.5).toFixed(1)} / ${quantile(live, 0.99).toFixed(1)} / ${live.at(-1)?.toFixed(1)} (${live.length}) | ${before.toFixed(0)} / ${peak.toFixed(0)} / ${after.toFixed(0)} (${after - before >= 0 ? '+' : ''}${(after - before).toFixed(0)}) |`,
    );
  }
  console.log(`\nSQLite, ${args.built ? 'api/dist/server.js' : 'the API from its sources (run-ts.mjs)'}, MEDIA_JOBS/MEDIA_THREADS defaults, node ${process.version}.`);
} finally {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
