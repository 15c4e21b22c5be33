// Upload-to-variants time for a 12-megapixel phone photo, and the bytes of a post's LCP image on a phone before
// (the photo itself) and after (the variant the hero's srcset/sizes picks). Run after the API build:
//   node api/bench/media-upload.mjs [--runs 3]
// Starts api/dist/server.js on a free loopback port with a temp DATA_DIR (SQLite, files on disk).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { startServer } from './bench-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sharp = createRequire(path.join(here, '../package.json'))('sharp');
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Math.max(1, Math.min(10, Number(args.runs) || 3));
const PASSWORD = 'media-bench admin password';
const ORIGIN = 'http://127.0.0.1';


/** A 4000x3000 photo-like JPEG (noise over a gradient, so it compresses like a photo, ~4-6 MB) with EXIF GPS. */
async function twelveMegapixelJpeg(seed) {
  const width = 4000;
  const height = 3000;
  const noise = await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128 + seed, sigma: 40 } } }).png().toBuffer();
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#c52"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(gradient)
    .composite([{ input: noise, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'BenchPhone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 49/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '121/1 59/1 0/1' } })
    .toBuffer();
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'media-bench-'));
const server = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_ROOT: dataDir, PUBLIC_ORIGIN: ORIGIN, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' }, { built: true, timeoutMs: 20_000 });
try {
  const base = await server.url;
  const login = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify({ password: PASSWORD }) });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`login answered ${login.status}`);

  const times = [];
  let last;
  let photoBytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const photo = await twelveMegapixelJpeg(run);
    photoBytes = photo.length;
    const form = new FormData();
    form.set('file', new Blob([photo], { type: 'image/jpeg' }), `IMG_${run}.jpg`);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/admin/media`, { method: 'POST', headers: { origin: ORIGIN, cookie }, body: form });
    const answered = performance.now() - t0;
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    last = await res.json();
    // The upload answers when the original is stored and checked; the variants follow (the media-variants job).
    while (last.state === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      last = await (await fetch(`${base}/api/admin/media/${last.id}`, { headers: { cookie } })).json();
    }
    const ms = performance.now() - t0;
    times.push(ms);
    console.log(`run ${run + 1}: ${(photo.length / 1e6).toFixed(1)} MB, 4000x3000 -> answered in ${Math.round(answered)} ms, ${last.variants.length} variants ${last.state} in ${Math.round(ms)} ms`);
  }
  times.sort((a, b) => a - b);
  console.log(`upload-to-variants, 12 MP JPEG: median ${Math.round(times[Math.floor(times.length / 2)])} ms, min ${Math.round(times[0])} ms, max ${Math.round(times.at(-1))} ms (${RUNS} runs)`);

  // A 390 px phone: the hero's sizes is calc(100vw - 2rem) = 358 CSS px; the browser picks the first width >= 358 x DPR.
  const sizes = {};
  for (const v of last.variants) sizes[`${v.format}-${v.width}`] = Number((await fetch(`${base}${v.url}`)).headers.get('content-length'));
  console.log(`LCP image before (the phone's JPEG as uploaded): ${photoBytes} bytes`);
  for (const dpr of [1, 2, 3]) {
    const need = 358 * dpr;
    const width = [480, 960, 1600].find((w) => w >= need) ?? 1600;
    console.log(`after, 390 px phone at DPR ${dpr}: ${width} w, AVIF ${sizes[`avif-${width}`]} bytes, WebP ${sizes[`webp-${width}`]} bytes, JPEG ${sizes[`jpg-${width}`]} bytes`);
  }
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  await rm(dataDir, { recursive: true, force: true });
}
