import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMissing, startChildServer } from '../test-support/child-server';
import { describeNeedingBuild } from '../test-support/built-site';
import { call, contactMessage, waitFor } from '../test-support/site-client';
import { startTestServer } from '../test-support/test-server';
import { startMailbox, type LoopbackMailbox } from '../test-support/mailbox';

describe('readiness while draining', () => {
  it('answers ready 503 (draining) once a shutdown began, while liveness stays 200', async () => {
    const server = await startTestServer();
    try {
      expect((await call(server.url, '/api/health/ready')).json).toEqual({ status: 'ready' });
      server.instance.drain();
      const ready = await call(server.url, '/api/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.json.error.code).toBe('draining');
      expect((await call(server.url, '/api/health/live')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describeNeedingBuild('SIGTERM on the built server', { missing: bundleMissing() }, () => {
  let dataDir: string;
  let smtp: LoopbackMailbox;
  let smtpDelayMs = 1500;
  const mails: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'graceful-shutdown-'));
    // A slow mail server: the first mail is still being sent when the signal comes.
    smtp = await startMailbox(async (raw) => {
      await new Promise((resolve) => setTimeout(resolve, smtpDelayMs));
      const id = /Message id: (\S+)/.exec(raw)?.[1];
      if (id) mails.push(id);
    });
  });
  afterAll(async () => {
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, takes no more outbox work, exits 0; the next start sends what was left', async () => {
    const env = {
      DATA_DIR: dataDir,
      SITE_ROOT: dataDir,
      SMTP_URL: smtp.url,
      RATE_LIMIT_MULTIPLIER: '10',
      ADMIN_PASSWORD: 'graceful admin password',
    };
    const server = await startChildServer(env);
    for (let i = 0; i < 3; i++) expect((await call(server.url, '/api/contact', { method: 'POST', body: contactMessage(`queued-${i}`) })).status).toBe(200);

    // A visitor whose message is half-way up the wire when the signal comes.
    const body = JSON.stringify(contactMessage('in-flight'));
    const target = new URL(server.url);
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        { host: target.hostname, port: target.port, path: '/api/contact', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 600);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.process.kill('SIGTERM');

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ success: true });
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // Only the mail that was being sent when the signal came went out.
    expect(mails).toHaveLength(1);

    // The next start (another instance would do the same) sends the rest, each once.
    smtpDelayMs = 0;
    const next = await startChildServer(env);
    try {
      await waitFor(() => mails.length >= 4, 15_000, 'the four owner mails');
    } finally {
      // Stopped (its outbox run finished) before counting: a mail sent twice would have gone out by its exit.
      expect(await next.stop()).toEqual({ code: 0, signal: null });
    }
    expect(mails).toHaveLength(4);
    expect(new Set(mails).size).toBe(4);
  }, 60_000);
});
