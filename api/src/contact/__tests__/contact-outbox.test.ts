import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { startMailbox, type LoopbackMailbox } from '../../test-support/mailbox';
import { createJobRunner, type JobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { createSmtpMailer, type Mailer } from '../../lib/mailer';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { addContactOutbox, CONTACT_MAIL_CLAIM_MS, CONTACT_MAIL_MAX_BACKOFF_MS, type ContactOutboxDeps } from '../contact-outbox';
import { createContactRepository, type ContactRepository, type StoredContactMessage } from '../contact-repository';
import { ownerMail } from '../contact-service';

const silent = createLogger({ level: process.env.OUTBOX_DEBUG ? 'debug' : 'silent' });
const ORIGIN = 'https://www.trivalley.test';
const messageIdOf = (raw: string) => /^Message-ID:\s*(<[^>]*>)/im.exec(raw)?.[1];

/** Timers the test fires by hand (none fires by itself): each armed delay is kept, so a backoff can be read. */
function manualTimers() {
  const armed: number[] = [];
  const timers: JobTimers = {
    set(_callback, ms) {
      armed.push(ms);
      return armed.length;
    },
    clear() {},
  };
  return { timers, armed };
}

/*
 * Issue 50: the contact mail outbox under leases. Each test drives the `contact-mail` job by hand (kicks, a clock it
 * moves), against a loopback SMTP server that keeps each message's Message-ID, on SQLite and PostgreSQL.
 */
describe.each(testBackends().map((b) => [b.name, b] as const))('the contact mail outbox (%s)', (_name, backend) => {
  let database: TestDatabase;
  let mailbox: LoopbackMailbox;
  /** The Message-ID of every message the mailbox was offered, accepted or refused, in order. */
  let offered: string[];
  let refuseNext = 0;
  let now: number;
  const clock = () => new Date(now);
  const runners: JobRunner[] = [];
  const mailers: Mailer[] = [];

  beforeAll(async () => {
    database = await backend.open();
    mailbox = await startMailbox((raw) => {
      offered.push(messageIdOf(raw) ?? '');
      if (refuseNext > 0) {
        refuseNext -= 1;
        throw Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
      }
    });
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    for (const m of mailers) m.close();
    await mailbox.close();
    await database.dispose();
  });
  beforeEach(async () => {
    offered = [];
    mailbox.received.length = 0;
    refuseNext = 0;
    now = Date.parse('2026-06-01T10:00:00.000Z');
    await database.handle.db.deleteFrom('contact_messages').execute();
  });

  /** One instance's outbox (its own runner and SMTP connection) on `db`; `wrap` may stand between it and its repository or mailer. */
  function instance(db: Kysely<Database>, options: Partial<ContactOutboxDeps> & { wrapRepo?: (r: ContactRepository) => ContactRepository } = {}) {
    const { timers, armed } = manualTimers();
    const runner = createJobRunner({ clock, logger: silent, timers });
    runners.push(runner);
    const smtp = createSmtpMailer(mailbox.url);
    mailers.push(smtp);
    const repository = createContactRepository(db);
    const job = addContactOutbox(
      {
        messages: options.wrapRepo ? options.wrapRepo(repository) : repository,
        mailer: smtp,
        clock,
        logger: silent,
        jobs: runner,
        mailTo: 'owner@trivalley.test',
        mailFrom: 'site@trivalley.test',
        publicOrigin: ORIGIN,
        sendRatePerSecond: 1000,
        ...options,
      },
      ownerMail,
    );
    runner.start();
    return { run: async () => (await job.kick())?.done, armed, runner };
  }

  async function queue(count: number): Promise<string[]> {
    const repository = createContactRepository(database.handle.db);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const message: StoredContactMessage = {
        id: randomUUID(),
        createdAt: new Date(now + i).toISOString(),
        ipHash: 'hash',
        userAgent: null,
        name: `Visitor ${i}`,
        email: `visitor${i}@example.test`,
        company: null,
        subject: `Question ${i}`,
        message: 'Hello',
        mailStatus: 'pending',
        mailAttempts: 0,
        mailNextAttemptAt: null,
        mailLastError: null,
        mailSentAt: null,
      };
      await repository.insert(message);
      ids.push(message.id);
    }
    return ids;
  }

  const stored = () => database.handle.db.selectFrom('contact_messages').select(['id', 'mail_status', 'mail_attempts', 'mail_next_attempt_at', 'mail_claim']).execute();

  it('sends each mail once when two instances race for the same due mails, each with its stable Message-ID', async () => {
    const ids = await queue(12);
    const a = instance(database.handle.db);
    const b = instance((await database.another()).db);
    const [sentA, sentB] = await Promise.all([a.run(), b.run()]);
    expect(sentA).toBeGreaterThanOrEqual(0);
    expect(sentB).toBeGreaterThanOrEqual(0);
    expect(sentA! + sentB!).toBe(12);
    expect(mailbox.received.map(messageIdOf).sort()).toEqual(ids.map((id) => `<contact-${id}@www.trivalley.test>`).sort());
    expect((await stored()).every((r) => r.mail_status === 'sent' && Number(r.mail_attempts) === 1 && r.mail_claim === null)).toBe(true);
  });

  it('takes over the mail of a killed instance once its lease (30 s) has passed, and not before', async () => {
    expect(CONTACT_MAIL_CLAIM_MS).toBeLessThanOrEqual(60_000);
    const [id] = await queue(1);
    // Instance A claims the mail and dies inside the SMTP exchange: its send never returns.
    let unblock!: (error: Error) => void;
    const killed = instance(database.handle.db, { mailer: { send: () => new Promise((_resolve, reject) => (unblock = reject)), close() {} } });
    const hung = killed.run();
    await expect.poll(async () => (await stored())[0]?.mail_claim).not.toBeNull();
    try {
      const b = instance((await database.another()).db);
      now += CONTACT_MAIL_CLAIM_MS - 1000;
      expect(await b.run()).toBe(0);
      expect(mailbox.received).toHaveLength(0);
      now += 1000;
      expect(await b.run()).toBe(1);
      expect(mailbox.received.map(messageIdOf)).toEqual([`<contact-${id}@www.trivalley.test>`]);
    } finally {
      // The dead instance's late refusal changes nothing: its claim is no longer the mail's.
      unblock(Object.assign(new Error('rejected'), { responseCode: 550 }));
      await hung;
    }
    expect(await stored()).toMatchObject([{ mail_status: 'sent', mail_attempts: 1 }]);
  });

  it('never sends a mail twice when recording it fails (the database went away after SMTP accepted it)', async () => {
    await queue(1);
    let databaseDown = true;
    const a = instance(database.handle.db, {
      recordRetryMs: 50,
      wrapRepo: (r) => ({
        ...r,
        markMailSent: async (id, at) => {
          if (databaseDown) throw new Error('Connection terminated unexpectedly');
          return r.markMailSent(id, at);
        },
      }),
    });
    // The run retries the record, then ends failed (the runner backs off); the mail is still claimed, not given back.
    expect(await a.run()).toBeUndefined();
    expect(mailbox.received).toHaveLength(1);
    // Later runs while the database is still away send nothing more.
    now += 5_000;
    expect(await a.run()).toBeUndefined();
    expect(mailbox.received).toHaveLength(1);
    // The database is back: the record lands within a second or two, before any run, so another instance whose run
    // comes after the claim lapsed finds nothing to send.
    databaseDown = false;
    await expect.poll(async () => (await stored())[0]?.mail_status, { timeout: 5_000 }).toBe('sent');
    now += CONTACT_MAIL_CLAIM_MS;
    expect(await instance((await database.another()).db).run()).toBe(0);
    expect(await a.run()).toBe(0);
    expect(mailbox.received).toHaveLength(1);
    expect(await stored()).toMatchObject([{ mail_status: 'sent', mail_attempts: 1, mail_claim: null }]);
  });

  it('sends the same Message-ID on the retry after the mail server refused it for a while', async () => {
    const [id] = await queue(1);
    refuseNext = 1;
    const a = instance(database.handle.db);
    expect(await a.run()).toBe(0);
    expect(await stored()).toMatchObject([{ mail_status: 'pending', mail_attempts: 1 }]);
    now += 61_000;
    expect(await a.run()).toBe(1);
    const expected = `<contact-${id}@www.trivalley.test>`;
    expect(offered).toEqual([expected, expected]);
    expect(mailbox.received.map(messageIdOf)).toEqual([expected]);
  });

  it('backs off while the mail server is down without charging any mail an attempt, then drains the whole queue', async () => {
    const ids = await queue(120);
    let down = true;
    const smtp = createSmtpMailer(mailbox.url);
    mailers.push(smtp);
    const a = instance(database.handle.db, {
      mailer: {
        send: (mail) => (down ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION' })) : smtp.send(mail)),
        close() {},
      },
    });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(await a.run()).toBeUndefined();
      delays.push(a.armed.at(-1)!);
      now += delays.at(-1)!;
    }
    // 10 s doubling to the cap: the job retries at least every 30 s while the server is down.
    expect(delays).toEqual([20_000, CONTACT_MAIL_MAX_BACKOFF_MS, CONTACT_MAIL_MAX_BACKOFF_MS, CONTACT_MAIL_MAX_BACKOFF_MS]);
    expect((await stored()).every((r) => r.mail_status === 'pending' && Number(r.mail_attempts) === 0 && r.mail_claim === null)).toBe(true);
    down = false;
    // The first run after it returns sends every queued mail (batch after batch), each once.
    expect(await a.run()).toBe(120);
    expect(new Set(mailbox.received.map(messageIdOf)).size).toBe(120);
    expect(mailbox.received.map(messageIdOf).sort()).toEqual(ids.map((id) => `<contact-${id}@www.trivalley.test>`).sort());
    expect((await stored()).every((r) => r.mail_status === 'sent' && Number(r.mail_attempts) === 1)).toBe(true);
  });
});
