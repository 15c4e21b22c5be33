import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { startMailbox, type LoopbackMailbox } from '../../test-support/mailbox';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { contactErrorResponseSchema } from '@site/contracts/contact';

const VALID = {
  name: 'Jordan Lee',
  email: 'jordan@diablobistro.com',
  company: 'Diablo Bistro',
  subject: 'Phone orders',
  message: 'We miss phone orders every Friday night. Can a bot help?',
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'ContactTest/1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const rows = (server: TestServer) => server.instance.db.selectFrom('contact_messages').selectAll().orderBy('created_at').execute();

/**
 * A failed contact answer as the spec's client reads it (section 7: `{ success, message }`) and as API callers read
 * it (the error envelope): both, with one sentence.
 */
async function expectContactFailure(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = await res.json();
  const parsed = contactErrorResponseSchema.parse(body);
  expect(parsed.success).toBe(false);
  expect(parsed.message.trim()).not.toBe('');
  expect(parsed.message).toBe(parsed.error.message);
  expect(errorEnvelopeSchema.parse(body).error.message).toBe(parsed.message);
  return parsed;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('POST /api/contact', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Many posts from one IP: the limit itself is tested below.
    server = await startTestServer({ env: { RATE_LIMIT_MULTIPLIER: '100' } });
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.instance.db.deleteFrom('contact_messages').execute();
  });

  it('stores the message with time, hashed IP and user agent before answering success', async () => {
    const res = await post(server.url, VALID);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(true);
    expect(body.message).toContain('Jordan');
    // Stored by the time the answer arrived.
    const stored = await rows(server);
    expect(stored).toHaveLength(1);
    const row = stored[0]!;
    expect(row).toMatchObject({ ...VALID, user_agent: 'ContactTest/1.0', mail_status: 'disabled' });
    expect(row.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.ip_hash).not.toContain('127.0.0.1');
    expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('hashes the same IP the same way with the install salt, never as plain SHA-256 of the IP', async () => {
    await post(server.url, VALID);
    await post(server.url, { ...VALID, company: undefined, subject: '' });
    const [a, b] = await rows(server);
    expect(a!.ip_hash).toBe(b!.ip_hash);
    const { createHash } = await import('node:crypto');
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1']) expect(a!.ip_hash).not.toBe(createHash('sha256').update(ip).digest('hex'));
    expect(b).toMatchObject({ company: null, subject: null });
  });

  it('answers 400 with the error envelope naming every invalid field, and stores nothing', async () => {
    const res = await post(server.url, { name: '', email: 'not-an-email', message: '   ' });
    expect(res.status).toBe(400);
    const { error } = errorEnvelopeSchema.parse(await res.json());
    expect(error.message).toContain('name');
    expect(error.message).toContain('email: Enter a valid email address');
    expect(error.message).toContain('message');
    expect(error.code).toBe('validation_failed');
    expect(await rows(server)).toHaveLength(0);
  });

  it('refuses over-long fields and a non-JSON body', async () => {
    const long = await post(server.url, { ...VALID, message: 'x'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await long.json()).error.message).toContain('at most 5000');
    const text = await post(server.url, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(text.status).toBe(415);
    expect(errorEnvelopeSchema.parse(await text.json()).error.code).toBe('unsupported_media_type');
    expect(await rows(server)).toHaveLength(0);
  });

  it("answers every failure with the spec's success: false and message beside the error envelope (400, 413, 415)", async () => {
    const invalid = await expectContactFailure(await post(server.url, { name: '', email: 'not-an-email', message: '   ' }), 400);
    expect(invalid.error.code).toBe('validation_failed');
    expect(invalid.message).toContain('email: Enter a valid email address');
    expect((await expectContactFailure(await post(server.url, '{"name":'), 400)).error.code).toBe('invalid_json');

    // Over BODY_LIMIT: refused by its Content-Length before routing, and, sent chunked, by the parser.
    const big = JSON.stringify({ ...VALID, message: 'x'.repeat(server.config.bodyLimit) });
    expect((await expectContactFailure(await post(server.url, big), 413)).error.code).toBe('payload_too_large');
    const chunked = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect((await expectContactFailure(chunked, 413)).error.code).toBe('payload_too_large');

    const form = await post(server.url, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect((await expectContactFailure(form, 415)).error.code).toBe('unsupported_media_type');
    expect(await rows(server)).toHaveLength(0);
  });

  it('keeps success answers and other endpoints as they are', async () => {
    const ok = (await (await post(server.url, VALID)).json()) as Record<string, unknown>;
    expect(Object.keys(ok).sort()).toEqual(['message', 'success']);
    const other = await fetch(`${server.url}/api/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(other.status).toBe(400);
    expect(Object.keys((await other.json()) as object)).toEqual(['error']);
  });

  it('drops a bot that filled the honeypot, answering like a success', async () => {
    const res = await post(server.url, { ...VALID, website: 'http://spam.example' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    expect(await rows(server)).toHaveLength(0);
  });

  it('never answers success when the message could not be stored', async () => {
    await sql`alter table contact_messages rename to contact_messages_away`.execute(server.instance.db);
    try {
      const res = await post(server.url, VALID);
      // A fault the visitor can do nothing about: the spec's own sentence, no detail of ours.
      const failed = await expectContactFailure(res, 500);
      expect(failed).toEqual({
        success: false,
        message: 'Failed to send message. Please try again.',
        error: { code: 'internal_error', message: 'Failed to send message. Please try again.' },
      });
    } finally {
      await sql`alter table contact_messages_away rename to contact_messages`.execute(server.instance.db);
    }
  });
});

describe('POST /api/contact rate limit', () => {
  it('allows 5 per 10 minutes per IP, then 429 with Retry-After and the error envelope', async () => {
    const server = await startTestServer();
    try {
      for (let i = 0; i < 5; i++) expect((await post(server.url, VALID)).status).toBe(200);
      const limited = await post(server.url, VALID);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
      const { error, message } = await expectContactFailure(limited, 429);
      expect(error.code).toBe('rate_limited');
      expect(message).toMatch(/Too many messages/);
      expect(await rows(server)).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it('honours RATE_LIMIT_MULTIPLIER', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_MULTIPLIER: '2' } });
    try {
      for (let i = 0; i < 10; i++) expect((await post(server.url, VALID)).status).toBe(200);
      expect((await post(server.url, VALID)).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('POST /api/contact with SMTP_URL', () => {
  let failNext = 0;
  let mailbox: LoopbackMailbox;
  let received: string[];
  let smtpUrl: string;

  beforeAll(async () => {
    mailbox = await startMailbox(() => {
      if (failNext > 0) {
        failNext -= 1;
        throw Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
      }
    });
    ({ received, url: smtpUrl } = mailbox);
  });
  afterAll(() => mailbox.close());

  it('emails the owner with the message and a reply-to of the visitor', async () => {
    received.length = 0;
    const server = await startTestServer({ env: { SMTP_URL: smtpUrl, CONTACT_EMAIL_TO: 'owner@trivalley.test' } });
    try {
      expect((await post(server.url, VALID)).status).toBe(200);
      await until(() => received.length === 1);
      const mail = received[0]!;
      expect(mail).toMatch(/^To: owner@trivalley\.test/m);
      expect(mail).toMatch(/^Reply-To: jordan@diablobistro\.com/m);
      expect(mail).toMatch(/^Subject: Website contact: Phone orders/m);
      expect(mail).toContain('We miss phone orders every Friday night.');
      await until(async () => (await rows(server))[0]?.mail_status === 'sent');
    } finally {
      await server.close();
    }
  });

  it('keeps the message and answers success when the mail fails, then retries it later', async () => {
    received.length = 0;
    failNext = 1;
    let now = Date.now();
    const server = await startTestServer({ env: { SMTP_URL: smtpUrl }, deps: { clock: () => new Date(now) } });
    try {
      const res = await post(server.url, VALID);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
      await until(async () => (await rows(server))[0]?.mail_attempts === 1);
      const failed = (await rows(server))[0]!;
      expect(failed).toMatchObject({ mail_status: 'pending', name: 'Jordan Lee' });
      expect(failed.mail_last_error).toMatch(/Mailbox temporarily unavailable/);
      expect(received).toHaveLength(0);

      // Not due yet: nothing is sent.
      expect(await server.instance.services.contact.processOutbox()).toBe(0);
      // The outbox retries once the backoff has passed.
      now += 2 * 60_000;
      expect(await server.instance.services.contact.processOutbox()).toBe(1);
      expect(received).toHaveLength(1);
      expect((await rows(server))[0]).toMatchObject({ mail_status: 'sent', mail_attempts: 2 });
    } finally {
      await server.close();
    }
  });
});
