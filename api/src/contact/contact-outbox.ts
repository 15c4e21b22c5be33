import { randomUUID } from 'node:crypto';
import type { ContactRepository, StoredContactMessage } from './contact-repository';
import type { Clock } from '../lib/clock';
import type { Job, JobRun, JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import { mailMessageId, type Mailer, type OutgoingMail } from '../lib/mailer';
import { inRequestOf } from '../lib/request-context';

/*
 * The contact mail outbox: the `contact-mail` job of every instance sends the owner mails stored with the messages.
 * What it promises (docs/operating.md, "Background work: leases and the outbox"):
 * - A mail is sent by the instance whose claim on it succeeds (a compare-and-set writing a token), under a lease of
 *   `claimMs` (30 s) that the holder renews every third of it while SMTP works; a killed holder's mail is due again
 *   once its lease lapses, and the next poll (10 s) of any instance sends it.
 * - Every attempt carries the same Message-ID, `<contact-<message id>@<host of PUBLIC_ORIGIN>>`.
 * - Once SMTP has accepted a mail it is never released for another try: when recording it fails (the database went
 *   away), the record is retried (within the run, then every second) until the database answers. Only a crash
 *   between SMTP's acceptance and that record, or another instance reaching the database first after an outage longer
 *   than the lease, sends it again, with the same Message-ID, which mail clients show as one message.
 * - A mail server that does not answer (refused, timed out, dropped, 421) is the server's state, not the mail's: the
 *   mail is given back without an attempt counted and the whole job backs off (10 s, 20 s, then every 30 s). A refusal
 *   of one mail (another 4xx or a 5xx) counts an attempt on it: retried after 1 min doubling, at most 6 h, 8 in all.
 * - Once a send succeeds the run keeps sending, batch after batch, paced at `sendRatePerSecond` (5 a second), until
 *   none is due: 300 queued mails leave in about a minute.
 */

export interface ContactOutboxDeps {
  messages: ContactRepository;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  jobs: Pick<JobRunner, 'add'>;
  mailTo: string;
  mailFrom: string;
  /** The site's public origin: its host names every Message-ID. */
  publicOrigin?: string;
  /** How often every instance looks for due mails (default 10 s); each stored message kicks it too. */
  pollMs?: number;
  /** Attempts before a mail is marked failed (default 8: retries over about a day). */
  maxAttempts?: number;
  /** Delay before retry n (1-based) of a mail refused by the server; default 1 min, doubling, at most 6 h. */
  retryDelayMs?: (attempt: number) => number;
  /** How long a claim holds unless renewed (default 30 s; renewed every third of it while the mail is being sent). */
  claimMs?: number;
  /** Mails sent a second at most while draining (default 5). */
  sendRatePerSecond?: number;
  /** The longest wait between runs while the mail server is down (default 30 s; the wait doubles from `pollMs`). */
  maxBackoffMs?: number;
  /** How long one run retries the record of a sent mail while the database is away before it ends (default 20 s). */
  recordRetryMs?: number;
  newClaim?: () => string;
}

export const CONTACT_MAIL_POLL_MS = 10_000;
export const CONTACT_MAIL_CLAIM_MS = 30_000;
export const CONTACT_MAIL_RATE_PER_SECOND = 5;
export const CONTACT_MAIL_MAX_BACKOFF_MS = 30_000;
const BATCH = 50;
/** How long one run keeps retrying the record of a sent mail before it fails (the next run tries again first). */
const RECORD_RETRY_MS = 20_000;

const defaultRetryDelay = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 6 * 3600_000);

/** The mail server is unreachable or said it is unavailable: no mail can go now. */
export class MailServerUnavailableError extends Error {}

/**
 * Whether an SMTP failure is the server's (no answer, a dropped connection, 421 "service not available", bad
 * credentials) rather than this mail's: only a reply of the server about this message (another 4xx or a 5xx) is.
 */
export function isMailServerFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode !== 'number') return true;
  return responseCode === 421 || code === 'EAUTH' || code === 'ECONNECTION';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function addContactOutbox(deps: ContactOutboxDeps, mailOf: (m: StoredContactMessage) => Omit<OutgoingMail, 'to' | 'from'>): Job & { close(): void } {
  const { messages, logger } = deps;
  const maxAttempts = deps.maxAttempts ?? 8;
  const retryDelay = deps.retryDelayMs ?? defaultRetryDelay;
  const claimMs = deps.claimMs ?? CONTACT_MAIL_CLAIM_MS;
  const spacingMs = 1000 / Math.max(0.001, deps.sendRatePerSecond ?? CONTACT_MAIL_RATE_PER_SECOND);
  const newClaim = deps.newClaim ?? randomUUID;
  const recordRetryMs = deps.recordRetryMs ?? RECORD_RETRY_MS;
  /** Mails SMTP accepted whose record did not reach the database yet (id -> when sent): recorded first by every run. */
  const unrecorded = new Map<string, string>();
  let lastSendAt = -Infinity;

  /** Waits for this send's turn at the outbox's rate (a steady pace, whatever the run). */
  async function pace(): Promise<void> {
    const wait = lastSendAt + spacingMs - performance.now();
    if (wait > 0) await sleep(wait);
    lastSendAt = performance.now();
  }

  let flushing: NodeJS.Timeout | undefined;
  let closed = false;
  /**
   * Between runs, the records still owed are retried every second, so the first write to reach a database that is
   * back is this one, not another instance's claim on the mail (its runs back off up to 30 s while the database is away).
   */
  function flushSoon() {
    if (flushing || closed || unrecorded.size === 0) return;
    flushing = setTimeout(() => {
      void (async () => {
        for (const [id, at] of unrecorded) {
          try {
            await messages.markMailSent(id, at);
            unrecorded.delete(id);
          } catch {
            break;
          }
        }
        flushing = undefined;
        flushSoon();
      })();
    }, 1000);
    flushing.unref();
  }

  /** Records a sent mail, retrying while the database is away (up to RECORD_RETRY_MS in this run, then every second). */
  async function record(id: string, at: string): Promise<void> {
    const started = performance.now();
    for (let wait = 250; ; wait = Math.min(wait * 2, 1000)) {
      try {
        await messages.markMailSent(id, at);
        unrecorded.delete(id);
        return;
      } catch (err) {
        if (performance.now() - started >= recordRetryMs) {
          logger.error({ err, contactMessageId: id }, 'a sent contact mail could not be recorded yet; it is retried every second');
          flushSoon();
          throw err;
        }
      }
      await sleep(wait);
    }
  }

  type Outcome = 'sent' | 'refused' | 'server_down';

  async function sendOne(m: StoredContactMessage, claim: string, run: JobRun): Promise<Outcome> {
    // The holder renews its lease while SMTP works, so a slow server never lets another instance take the mail.
    const renewal = setInterval(() => {
      void messages.renewMailClaim(m.id, claim, new Date(deps.clock().getTime() + claimMs).toISOString()).catch(() => undefined);
    }, claimMs / 3);
    renewal.unref();
    try {
      await deps.mailer.send({ to: deps.mailTo, from: deps.mailFrom, replyTo: m.email, ...mailOf(m), messageId: mailMessageId('contact', m.id, deps.publicOrigin ?? '') });
    } catch (err) {
      clearInterval(renewal);
      if (isMailServerFailure(err)) {
        // In the request's context (its id and trace), as the refused mail's line below; the runner then backs off.
        logger.warn({ err, contactMessageId: m.id }, 'contact mail not sent: the mail server is unavailable; will retry later');
        await messages.releaseMailClaim(m.id, claim, messageOf(err)).catch((e: unknown) => logger.error({ err: e }, 'could not give back a contact mail'));
        throw new MailServerUnavailableError(`the mail server is unavailable: ${messageOf(err)}`, { cause: err });
      }
      const attempts = m.mailAttempts + 1;
      const gaveUp = attempts >= maxAttempts;
      const nextAttemptAt = gaveUp ? null : new Date(deps.clock().getTime() + retryDelay(attempts)).toISOString();
      logger.warn({ err, contactMessageId: m.id, attempts, gaveUp }, 'contact mail refused by the mail server; will retry later');
      await messages
        .markMailFailed(m.id, claim, { attempts, error: messageOf(err), nextAttemptAt, gaveUp })
        .catch((e: unknown) => logger.error({ err: e }, 'could not record the contact mail failure'));
      return 'refused';
    }
    clearInterval(renewal);
    // Sent: from here on the mail is never given back, whatever the database does.
    const at = run.now().toISOString();
    unrecorded.set(m.id, at);
    await record(m.id, at);
    return 'sent';
  }

  const job = deps.jobs.add({
    name: 'contact-mail',
    pollMs: deps.pollMs ?? CONTACT_MAIL_POLL_MS,
    claimMs,
    maxBackoffMs: deps.maxBackoffMs ?? CONTACT_MAIL_MAX_BACKOFF_MS,
    async run(run) {
      for (const [id, at] of unrecorded) await record(id, at);
      let done = 0;
      for (;;) {
        let claimed = false;
        for (const m of await messages.dueForMail(run.now().toISOString(), BATCH)) {
          // Out of budget (or stopping) with mails still due: the next run starts at once.
          if (run.signal.aborted) return { done, nextAt: run.now().getTime() };
          await pace();
          const claim = newClaim();
          if (!(await messages.claimForMail(m.id, claim, run.now().toISOString(), run.leaseUntil().toISOString()))) continue;
          claimed = true;
          // Its log lines (and spans) carry the id and trace of the request that stored the message; the mail's
          // traceparent continues that trace. A server down ends the run (thrown): the runner backs off.
          if ((await inRequestOf(m, () => sendOne(m, claim, run))) === 'sent') done += 1;
        }
        if (!claimed) return { done };
      }
    },
  });
  return {
    ...job,
    /** After the runner stopped: records still owed are not retried any more (logged when they failed). */
    close() {
      closed = true;
      if (flushing) clearTimeout(flushing);
    },
  };
}
