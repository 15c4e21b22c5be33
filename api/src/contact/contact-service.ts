import { createHash, randomUUID } from 'node:crypto';
import type { ContactRequest } from '@site/contracts/contact';
import type { ContactRepository, StoredContactMessage } from './contact-repository';
import type { ChangeEvents } from '../db/in-transaction';
import type { Clock } from '../lib/clock';
import { ConflictError } from '../lib/domain-errors';
import type { JobRunner } from '../lib/job-runner';
import { currentOrigin, inRequestOf } from '../lib/request-context';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../lib/mailer';

export interface ContactMeta {
  ip: string;
  userAgent: string | undefined;
  /** The submission's Idempotency-Key: a message already stored with it is answered again, not stored twice. */
  idempotencyKey?: string;
}

/** `repeated`: the submission was stored before under its idempotency key; nothing new was stored, mailed or sent. */
export type SubmitOutcome = { kind: 'stored'; message: StoredContactMessage } | { kind: 'repeated'; message: StoredContactMessage } | { kind: 'dropped' };

/** Whether a repeat of a key carries the same submission as the message stored with it (its validated fields). */
function sameSubmission(stored: StoredContactMessage, sent: StoredContactMessage): boolean {
  return (['name', 'email', 'company', 'subject', 'message'] as const).every((field) => stored[field] === sent[field]);
}

export interface ContactService {
  /**
   * Stores a validated message (before anyone is told it arrived) and queues the owner's mail.
   * A filled honeypot is dropped silently.
   */
  submit(input: ContactRequest & { website?: string }, meta: ContactMeta): Promise<SubmitOutcome>;
  /** Whether a message is stored with this Idempotency-Key (its repeat is not held to the rate limit: it stores nothing). */
  isStored(idempotencyKey: string): Promise<boolean>;
  /** Sends the owner mails that are due now (the `contact-mail` job's run); returns how many were sent. Never throws. */
  processOutbox(): Promise<number>;
  /** Closes the mailer, once the job runner has stopped (mails still due stay for another instance or the next start). */
  close(): void;
}

export interface ContactServiceDeps {
  messages: ContactRepository;
  clock: Clock;
  logger: Logger;
  /** Without a mailer messages are only stored (mail status `disabled`). */
  mailer?: Mailer;
  mailTo: string;
  mailFrom: string;
  newId?: () => string;
  /** Runs the outbox as its `contact-mail` job (only with a mailer): at start, every `outboxIntervalMs`, after each message. */
  jobs: Pick<JobRunner, 'add'>;
  /** How often the outbox looks for due mails (default 60 s). */
  outboxIntervalMs?: number;
  /** Attempts before a mail is marked failed (default 8: retries over about a day). */
  maxAttempts?: number;
  /** Delay before retry n (1-based); default 1 min, doubling, at most 6 h. */
  retryDelayMs?: (attempt: number) => number;
  /** How long a claimed mail belongs to the instance sending it (default 5 min; SMTP gives up within 45 s). */
  claimLeaseMs?: number;
  /**
   * Each stored message's event (outgoing webhooks' `lead.created`), written in the message's transaction: a message is
   * never stored without its event, nor an event without its message.
   */
  events?: ChangeEvents<StoredContactMessage>;
}

const defaultRetryDelay = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 6 * 3600_000);

/** SHA-256 of the IP with the install's salt: enough to spot abuse, useless to identify anyone elsewhere. */
export function hashIp(ip: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${ip}`).digest('hex');
}

/** One line: a visitor's line breaks must not fake header-like lines ("Email: …") in the owner's mail. */
const oneLine = (text: string) => text.replace(/[\r\n\v\f\u0085\u2028\u2029]+/g, ' ').trim();

export function ownerMail(m: StoredContactMessage): { subject: string; text: string } {
  const subject = oneLine(`Website contact: ${m.subject ?? `message from ${m.name}`}`).slice(0, 200);
  const text = [
    `New message from the website contact form (${m.createdAt}).`,
    '',
    `Name:    ${oneLine(m.name)}`,
    `Email:   ${oneLine(m.email)}`,
    `Company: ${oneLine(m.company ?? '-')}`,
    `Subject: ${oneLine(m.subject ?? '-')}`,
    '',
    m.message,
    '',
    `Message id: ${m.id}`,
  ].join('\n');
  return { subject, text };
}

export function createContactService(deps: ContactServiceDeps): ContactService {
  const newId = deps.newId ?? randomUUID;
  const maxAttempts = deps.maxAttempts ?? 8;
  const retryDelay = deps.retryDelayMs ?? defaultRetryDelay;
  const intervalMs = deps.outboxIntervalMs ?? 60_000;
  let salt: Promise<string> | undefined;

  const sendOne = async (m: StoredContactMessage): Promise<boolean> => {
    const mailer = deps.mailer!;
    try {
      await mailer.send({ to: deps.mailTo, from: deps.mailFrom, replyTo: m.email, ...ownerMail(m) });
      await deps.messages.markMailSent(m.id, deps.clock().toISOString());
      return true;
    } catch (err) {
      const attempts = m.mailAttempts + 1;
      const gaveUp = attempts >= maxAttempts;
      const nextAttemptAt = gaveUp ? null : new Date(deps.clock().getTime() + retryDelay(attempts)).toISOString();
      deps.logger.warn({ err, contactMessageId: m.id, attempts, gaveUp }, 'contact mail failed; will retry later');
      await deps.messages
        .markMailFailed(m.id, { attempts, error: err instanceof Error ? err.message : String(err), nextAttemptAt, gaveUp })
        .catch((e: unknown) => deps.logger.error({ err: e }, 'could not record the contact mail failure'));
      return false;
    }
  };

  // Every instance runs this job: only the one whose claim on a mail succeeds sends it, so a mail goes out once.
  const mailJob = deps.mailer
    ? deps.jobs.add({
        name: 'contact-mail',
        pollMs: intervalMs,
        claimMs: deps.claimLeaseMs ?? 5 * 60_000,
        async run(run) {
          let done = 0;
          for (const m of await deps.messages.dueForMail(run.now().toISOString(), 20)) {
            if (run.signal.aborted) break;
            if (!(await deps.messages.claimForMail(m.id, run.now().toISOString(), run.leaseUntil().toISOString()))) continue;
            // Its log lines (and spans) carry the id and trace of the request that stored the message, not of whatever
            // kicked this run; the mail's traceparent continues that trace.
            if (await inRequestOf(m, () => sendOne(m))) done += 1;
          }
          return { done };
        },
      })
    : undefined;

  const processOutbox = async (): Promise<number> => (await mailJob?.kick())?.done ?? 0;

  return {
    async submit(input, meta) {
      if (input.website && input.website.trim() !== '') return { kind: 'dropped' };
      salt ??= deps.messages.ipSalt();
      const message: StoredContactMessage = {
        id: newId(),
        createdAt: deps.clock().toISOString(),
        ipHash: hashIp(meta.ip, await salt),
        userAgent: meta.userAgent ? meta.userAgent.slice(0, 500) : null,
        name: input.name,
        email: input.email,
        company: input.company ?? null,
        subject: input.subject ?? null,
        message: input.message,
        mailStatus: deps.mailer ? 'pending' : 'disabled',
        mailAttempts: 0,
        mailNextAttemptAt: null,
        mailLastError: null,
        mailSentAt: null,
        idempotencyKey: meta.idempotencyKey ?? null,
        ...currentOrigin(),
      };
      const earlier = await deps.messages.insert(message, deps.events?.inTransaction(message));
      if (earlier) {
        // Another submission's key (or this one's, edited): refused, so a key never stands for two different messages.
        if (!sameSubmission(earlier, message)) {
          throw new ConflictError('This Idempotency-Key was already used with a different message. Send it with a new key.', { code: 'idempotency_conflict' });
        }
        return { kind: 'repeated', message: earlier };
      }
      deps.events?.committed();
      // The mail goes out in the background: the visitor's answer never waits on, or fails with, SMTP.
      void mailJob?.kick();
      return { kind: 'stored', message };
    },

    async isStored(idempotencyKey) {
      return (await deps.messages.findByIdempotencyKey(idempotencyKey)) !== undefined;
    },

    processOutbox,

    close() {
      deps.mailer?.close();
    },
  };
}
