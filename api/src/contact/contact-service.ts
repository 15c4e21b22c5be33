import { createHash, randomUUID } from 'node:crypto';
import type { ContactRequest } from '@site/contracts/contact';
import { addContactOutbox } from './contact-outbox';
import type { ContactRepository, StoredContactMessage } from './contact-repository';
import type { ChangeEvents } from '../db/in-transaction';
import type { Clock } from '../lib/clock';
import { ConflictError } from '../lib/domain-errors';
import type { JobRunner } from '../lib/job-runner';
import { currentOrigin } from '../lib/request-context';
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
  /** How often the outbox looks for due mails (default 10 s); contact-outbox.ts says what it promises. */
  outboxIntervalMs?: number;
  /** Attempts before a mail the server refuses is marked failed (default 8: retries over about a day). */
  maxAttempts?: number;
  /** Delay before retry n (1-based) of a refused mail; default 1 min, doubling, at most 6 h. */
  retryDelayMs?: (attempt: number) => number;
  /** How long a claim on a mail holds unless renewed (default 30 s, renewed while it is being sent). */
  claimLeaseMs?: number;
  /** Mails sent a second at most while the outbox drains (default 5). */
  mailRatePerSecond?: number;
  /** The site's public origin: its host names each mail's Message-ID. */
  publicOrigin?: string;
  /**
   * Each stored message's event (outgoing webhooks' `lead.created`), written in the message's transaction: a message is
   * never stored without its event, nor an event without its message.
   */
  events?: ChangeEvents<StoredContactMessage>;
}

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
  let salt: Promise<string> | undefined;

  // Every instance runs the outbox (contact-outbox.ts): only the one whose claim on a mail succeeds sends it.
  const mailJob = deps.mailer
    ? addContactOutbox(
        {
          messages: deps.messages,
          mailer: deps.mailer,
          clock: deps.clock,
          logger: deps.logger,
          jobs: deps.jobs,
          mailTo: deps.mailTo,
          mailFrom: deps.mailFrom,
          publicOrigin: deps.publicOrigin,
          pollMs: deps.outboxIntervalMs,
          maxAttempts: deps.maxAttempts,
          retryDelayMs: deps.retryDelayMs,
          claimMs: deps.claimLeaseMs,
          sendRatePerSecond: deps.mailRatePerSecond,
        },
        ownerMail,
      )
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
      mailJob?.close();
      deps.mailer?.close();
    },
  };
}
