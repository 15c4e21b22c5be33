// The fault suite's kill: an instance is killed (-9) while one admin upload is still streaming to it and another,
// already answered, is having its variants made; it is restarted as a supervisor would, and the suite measures how
// long until both instances serve again and until an image is servable with its variants.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiRequire } from './fault-kit.mjs';

/** Two photo-like JPEGs (noise over a gradient, so they compress like photos): 12 MP, or 4 MP with `quick`. */
export async function makePhotos(quick) {
  const sharp = apiRequire('sharp');
  const [width, height] = quick ? [2400, 1800] : [4000, 3000];
  const photo = async (seed) => {
    const noise = await sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 120 + seed, sigma: 40 } } }).png().toBuffer();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#c52"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
    return sharp(Buffer.from(svg)).composite([{ input: noise, blend: 'overlay' }]).jpeg({ quality: 90 }).toBuffer();
  };
  return [await photo(0), await photo(9), await photo(17)];
}

function multipart(photo, filename) {
  const boundary = `----fault-suite-${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, photo, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

/** Streams an upload in 64 KB pieces 10 ms apart; `onProgress(fraction)` after each piece. Resolves with what happened. */
function slowUpload(inst, cookie, origin, photo, onProgress) {
  const { body, type } = multipart(photo, 'IMG_killed.jpg');
  return new Promise((resolve) => {
    const req = http.request(`${inst.url}/api/admin/media`, { method: 'POST', headers: { 'content-type': type, 'content-length': body.length, cookie, origin } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
      res.on('error', (err) => resolve({ status: 'neterr', code: err.code }));
    });
    req.on('error', (err) => resolve({ status: 'neterr', code: err.code ?? err.message }));
    (async () => {
      for (let at = 0; at < body.length; at += 64 * 1024) {
        if (req.destroyed) return;
        req.write(body.subarray(at, at + 64 * 1024));
        onProgress(Math.min(1, (at + 64 * 1024) / body.length));
        await sleep(10);
      }
      req.end();
    })();
  });
}

async function upload(timedFetch, inst, cookie, origin, photo, filename) {
  const { body, type } = multipart(photo, filename);
  const r = await timedFetch(inst, '/api/admin/media', { method: 'POST', headers: { 'content-type': type, cookie, origin }, body });
  let item;
  try {
    item = JSON.parse(r.body);
  } catch {
    item = undefined;
  }
  return { status: r.status, item };
}

/** Polls the image (through `via`) until it is no longer processing and every variant answers 200, or `capS` passes. */
async function servable(timedFetch, via, cookie, id, since, capS) {
  let last;
  while (performance.now() - since < capS * 1000) {
    const r = await timedFetch(via(), `/api/admin/media/${id}`, { headers: { cookie } });
    if (r.status === 200) {
      last = JSON.parse(r.body);
      if (last.state === 'failed') return { state: 'failed', error: last.error, ms: performance.now() - since };
      if (last.state === 'ready') {
        const answers = await Promise.all(last.variants.map((v) => timedFetch(via(), v.url)));
        const ok = answers.filter((a) => a.status === 200).length;
        if (ok === answers.length) return { state: 'ready', variants: ok, ms: performance.now() - since };
      }
    }
    await sleep(200);
  }
  return { state: last?.state ?? 'unknown', variants: last?.variants?.length ?? 0, ms: null };
}

export async function killMidUpload({ victim, other, cookie, origin, photos, result: r, timedFetch, waitRecovered, capS }) {
  const first = await upload(timedFetch, victim, cookie, origin, photos[0], 'IMG_processing.jpg');
  r.notes.push(`upload answered ${first.status}${first.item?.state ? ` (${first.item.state})` : ''} before the kill`);
  let killedAt;
  let gone;
  const streamed = await slowUpload(victim, cookie, origin, photos[1], (fraction) => {
    if (fraction >= 0.4 && killedAt === undefined) {
      killedAt = performance.now();
      gone = victim.killNow();
    }
  });
  await gone;
  r.notes.push(`upload in flight at 40 % when killed: ${streamed.status}${streamed.code ? ` ${streamed.code}` : ''}`);
  killedAt ??= performance.now();
  const spawned = performance.now();
  try {
    await victim.start();
  } catch (err) {
    r.failures.push(`the killed instance did not start again: ${err.message.split('\n')[0]}`);
    return;
  }
  r.restartMs = performance.now() - spawned;
  r.recoverMs = await waitRecovered(spawned);
  r.notes.push(`restart to listening ${(r.restartMs / 1000).toFixed(2)} s; kill to both serving ${((performance.now() - killedAt) / 1000).toFixed(1)} s`);

  // The image that was processing on the killed instance: does some instance finish it, and when?
  const via = () => (victim.alive ? victim : other);
  if (first.item?.id) {
    const done = await servable(timedFetch, via, cookie, first.item.id, killedAt, capS);
    r.processingImage = done;
    r.notes.push(`image processing at the kill: ${done.state}${done.ms === null ? ` after ${capS} s` : ` ${(done.ms / 1000).toFixed(1)} s after the kill`}`);
  }
  // The upload that was cut off, sent again to the restarted instance.
  const again = performance.now();
  const second = await upload(timedFetch, victim, cookie, origin, photos[2], 'IMG_again.jpg');
  if (second.status !== 201 || !second.item?.id) {
    r.failures.push(`the upload sent again after the restart answered ${second.status}`);
  } else {
    const done = await servable(timedFetch, via, cookie, second.item.id, again, capS);
    r.reupload = done;
    r.notes.push(`upload sent again: ${done.state}${done.ms === null ? ` after ${capS} s` : `, servable with ${done.variants} variants in ${(done.ms / 1000).toFixed(1)} s`}`);
    if (done.state !== 'ready' && r.processingImage?.state !== 'ready') r.failures.push('no image was servable with its variants after the kill');
  }
  const list = await timedFetch(other, '/api/admin/media?limit=100', { headers: { cookie } });
  if (list.status === 200) {
    const states = {};
    for (const m of JSON.parse(list.body).media) states[m.state] = (states[m.state] ?? 0) + 1;
    r.notes.push(`media library afterwards: ${Object.entries(states).map(([k, v]) => `${v} ${k}`).join(', ') || 'empty'}`);
  }
}
