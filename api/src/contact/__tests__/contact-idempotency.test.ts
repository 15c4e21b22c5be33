import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contactErrorResponseSchema } from '@site/contracts/contact';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Issue 50: a contact submission carries an Idempotency-Key, kept when it is sent again; the server stores one lead per
 * key and answers a repeat with the first answer, storing, mailing and announcing (lead.created) nothing new.
 */

const VALID = {
  name: 'Jordan Lee',
  email: 'jordan@diablobistro.com',
  company: 'Diablo Bistro',
  subject: 'Phone orders',
  message: 'We miss phone orders every Friday night. Can a bot help?',
};

describe.each(testBackends().map((b) => b.name))('POST /api/contact with an Idempotency-Key (%s)', (backend) => {
  let server: TestServer;
  const schema = uniqueSchema();

  const post = (body: unknown, key?: string) =>
    fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
      body: JSON.stringify(body),
    });
  const leads = () => server.instance.db.selectFrom('contact_messages').selectAll().orderBy('created_at').execute();
  const leadEvents = () => server.instance.db.selectFrom('outgoing_webhook_deliveries').select('id').where('event_type', '=', 'lead.created').execute();
  const answerOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown, replayed: res.headers.get('idempotent-replayed') });

  beforeAll(async () => {
    server = await startTestServer({
      // The multiplier keeps the many posts of this file under the limit, except where the limit itself is tested.
      env: { RATE_LIMIT_MULTIPLIER: '100', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
    // An endpoint subscribed to lead.created, so each stored lead writes its delivery (a closed port: never answered).
    await server.instance.services.webhooksOut.createEndpoint({ url: 'http://127.0.0.1:9/hook', events: ['lead.created'] });
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.instance.db.deleteFrom('outgoing_webhook_attempts').execute();
    await server.instance.db.deleteFrom('outgoing_webhook_deliveries').execute();
    await server.instance.db.deleteFrom('contact_messages').execute();
  });

  it('stores one lead for a key sent twice, and answers the repeat with the first answer', async () => {
    const key = randomUUID();
    const first = await answerOf(await post(VALID, key));
    const again = await answerOf(await post(VALID, key));
    expect(first).toEqual({ status: 200, body: { success: true, message: expect.stringContaining('Jordan') }, replayed: null });
    expect(again).toEqual({ ...first, replayed: 'true' });
    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ ...VALID, idempotency_key: key });
    expect(await leadEvents()).toHaveLength(1);
  });

  it('stores one lead when ten requests with one key arrive at once', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(VALID, key).then(answerOf)));
    for (const answer of answers) expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: answers[0]!.body });
    // Exactly one of them stored it; the others were told it was stored before.
    expect(answers.filter((a) => a.replayed === null)).toHaveLength(1);
    expect(await leads()).toHaveLength(1);
    expect(await leadEvents()).toHaveLength(1);
  });

  it('stores a lead per key, and per request without one', async () => {
    await post(VALID, randomUUID());
    await post(VALID, randomUUID());
    await post(VALID);
    await post(VALID);
    const stored = await leads();
    expect(stored).toHaveLength(4);
    expect(stored.filter((row) => row.idempotency_key === null)).toHaveLength(2);
    expect(await leadEvents()).toHaveLength(4);
  });

  it('refuses a malformed key with a 400 that names the header, storing nothing', async () => {
    for (const key of ['short', 'has space in it', 'x'.repeat(101), 'é-not-ascii-key', 'semi;colon;key']) {
      const res = await post(VALID, key);
      expect(res.status, key).toBe(400);
      const body = contactErrorResponseSchema.parse(await res.json());
      expect(body.error.code).toBe('validation_failed');
      expect(body.message).toMatch(/^Idempotency-Key: must be 8 to 100 letters, digits/);
    }
    expect(await leads()).toHaveLength(0);
  });

  it('refuses the same key with other fields (409), keeping the first message as it was', async () => {
    const key = randomUUID();
    await post(VALID, key);
    const res = await post({ ...VALID, message: 'Something else entirely, with enough detail to pass.' }, key);
    expect(res.status).toBe(409);
    const body = contactErrorResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ success: false, error: { code: 'idempotency_conflict' } });
    expect(body.message).toBe('This Idempotency-Key was already used with a different message. Send it with a new key.');
    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.message).toBe(VALID.message);
    // The same fields as sent (surrounding white space is trimmed by validation) are the same submission.
    const padded = await post({ ...VALID, name: `  ${VALID.name} ` }, key);
    expect(padded.status).toBe(200);
    expect(padded.headers.get('idempotent-replayed')).toBe('true');
  });

  it('drops a filled honeypot with a key as without one: the same answer, nothing stored', async () => {
    const key = randomUUID();
    const res = await post({ ...VALID, website: 'http://spam.example' }, key);
    expect(res.status).toBe(200);
    expect(await leads()).toHaveLength(0);
  });
});

describe('POST /api/contact: the rate limit and repeats', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (key: string, message = 'We miss phone orders every Friday night. Can a bot help?') =>
    fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ ...VALID, message }),
    });

  it('answers the repeat of a stored submission even when the 5 messages are used up, and nothing new past them', async () => {
    const keys = Array.from({ length: 5 }, () => randomUUID());
    for (const key of keys) expect((await post(key)).status).toBe(200);
    // The fifth answer was lost: its retry still gets the first answer, and stores nothing.
    const retry = await post(keys[4]!);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // A new submission is over the budget.
    const sixth = await post(randomUUID());
    expect(sixth.status).toBe(429);
    // A stored key with other fields is not let through to store anything: refused as a conflict (a failed attempt).
    expect((await post(keys[0]!, 'Another message with the key of the first one.')).status).toBe(409);
    const stored = await server.instance.db.selectFrom('contact_messages').select('id').execute();
    expect(stored).toHaveLength(5);
  });
});
