// Outgoing webhook delivery latency, over loopback, against the built server (`node build.mjs` in api/ first):
// `node api/bench/webhook-delivery.mjs`. Bounded: 100 contact messages, one at a time.
//
// It starts the server with a fresh SQLite data dir, registers a loopback receiver as an endpoint for `lead.created`
// (through the admin API, as the Integrations screen does), submits 100 contact messages and prints the p50/p95 of
// event creation (the payload's createdAt, stamped by the server when the message is stored) to receipt, and of the
// visitor's POST to receipt. Every delivery's signature is checked.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const PASSWORD = 'bench password, not a secret';
const EVENTS = 100;

const pct = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)];
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;

function verify(rawBody, header, secret) {
  const parts = Object.fromEntries(String(header).split(',').map((p) => p.split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  return /^[0-9a-f]{64}$/.test(parts.v1 ?? '') && timingSafeEqual(Buffer.from(parts.v1, 'hex'), expected);
}

// The receiver: records receipt time per event id.
const received = new Map();
let secret = '';
let badSignatures = 0;
const waiting = new Map();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const at = Date.now();
    if (!verify(body, req.headers['x-webhook-signature'], secret)) badSignatures += 1;
    const event = JSON.parse(body);
    received.set(event.id, { at, createdAt: Date.parse(event.createdAt), messageId: event.data.id, count: (received.get(event.id)?.count ?? 0) + 1 });
    res.writeHead(204).end();
    waiting.get(event.data.id)?.(at);
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const dataDir = await mkdtemp(path.join(tmpdir(), 'webhook-bench-'));
const server = spawn(process.execPath, [path.join(root, 'api/dist/server.js')], {
  cwd: root,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: PASSWORD, DATABASE_URL: '', RATE_LIMIT_MULTIPLIER: '1000', SMTP_URL: '', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s')), 20_000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /Site running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const origin = new URL(url).origin;
  const login = await fetch(`${url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ password: PASSWORD }) });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const created = await fetch(`${url}/api/admin/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: JSON.stringify({ url: hookUrl, description: 'bench receiver', events: ['lead.created'] }),
  });
  if (created.status !== 201) throw new Error(`creating the endpoint answered ${created.status}: ${await created.text()}`);
  secret = (await created.json()).secret;

  const fromCreation = [];
  const fromPost = [];
  for (let i = 0; i < EVENTS; i++) {
    const sent = Date.now();
    const res = await fetch(`${url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${i}`, email: `bench${i}@example.com`, message: `Bench message number ${i}.` }),
    });
    const answer = await res.json();
    if (res.status !== 200) throw new Error(`contact answered ${res.status}: ${JSON.stringify(answer)}`);
    // The message id is not in the answer: wait for the next delivery.
    const before = received.size;
    const deadline = Date.now() + 10_000;
    while (received.size === before) {
      if (Date.now() > deadline) throw new Error(`event ${i} not delivered within 10 s`);
      await new Promise((r) => setTimeout(r, 1));
    }
    const last = [...received.values()].at(-1);
    fromCreation.push(last.at - last.createdAt);
    fromPost.push(last.at - sent);
  }
  // Give stray duplicates a moment to show up (there must be none).
  await new Promise((r) => setTimeout(r, 500));
  const duplicates = [...received.values()].filter((r) => r.count > 1).length;
  console.log(`${EVENTS} lead.created events, one at a time, SQLite, loopback receiver:`);
  console.log(`  event created -> received: p50 ${fmt(pct(fromCreation, 50))}, p95 ${fmt(pct(fromCreation, 95))}, max ${fmt(Math.max(...fromCreation))}`);
  console.log(`  contact POST sent -> received: p50 ${fmt(pct(fromPost, 50))}, p95 ${fmt(pct(fromPost, 95))}`);
  console.log(`  delivered ${received.size}, duplicates ${duplicates}, bad signatures ${badSignatures}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
}
