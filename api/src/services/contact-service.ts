import { createHash, randomUUID } from 'node:crypto';
import type { ContactRequest } from '@site/contracts/contact';
import type { ContactRepository, StoredContactMessage } from '../db/repositories/contact-repository';
import type { ChangeEvents } from '../db/in-transaction';
import type { Clock } from '../lib/clock';
import { currentRequestId, inRequestOf, runOutsideRequest } from '../lib/request-context';
import type { Logger } from '../lib/logger';
import type { Mailer } from './mailer';

export interface ContactMeta {
  ip: string;
  userAgent: string | undefined;
}

export type SubmitOutcome = { kind: 'stored'; message: StoredContactMessage } | { kind: 'dropped' };

export interface ContactService {
  /**
   * Stores a validated message (before anyone is told it arrived) and queues the owner's mail.
   * A filled honeypot is dropped silently.
   */
  submit(input: ContactRequest & { website?: string }, meta: ContactMeta): Promise<SubmitOutcome>;
  /** Sends the owner mails that are due; returns how many were sent. Never throws. */
  processOutbox(): Promise<number>;
  /** Starts the retry loop (only with a mailer). */
  start(): void;
  /**
   * Stops taking outbox work (graceful shutdown: mails still due stay in the database for another instance or the
   * next start), waits for the mail being sent, then closes the mailer. Idempotent.
   */
  stop(): Promise<void>;
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
  const claimLeaseMs = deps.claimLeaseMs ?? 5 * 60_000;
  let salt: Promise<string> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<number> = Promise.resolve(0);
  let stopped = false;
  let stopping: Promise<void> | undefined;

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

  const runOutbox = async (): Promise<number> => {
    if (!deps.mailer) return 0;
    let sent = 0;
    try {
      const due = await deps.messages.dueForMail(deps.clock().toISOString(), 20);
      for (const m of due) {
        if (stopped) break;
        // Every instance runs this loop: only the one whose claim succeeds sends, so a mail goes out once.
        const now = deps.clock();
        if (!(await deps.messages.claimForMail(m.id, now.toISOString(), new Date(now.getTime() + claimLeaseMs).toISOString()))) continue;
        // Its log lines (and spans) carry the id of the request that stored the message, not of whatever kicked this run.
        if (await inRequestOf(m.requestId, () => sendOne(m))) sent += 1;
      }
    } catch (err) {
      deps.logger.error({ err }, 'contact outbox run failed');
    }
    return sent;
  };

  // One run at a time: a kick during a run queues behind it.
  const processOutbox = (): Promise<number> => {
    const next = chain.then(() => runOutsideRequest(runOutbox));
    chain = next;
    return next;
  };

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
        requestId: currentRequestId() ?? null,
      };
      await deps.messages.insert(message, deps.events?.inTransaction(message));
      deps.events?.committed();
      // The mail goes out in the background: the visitor's answer never waits on, or fails with, SMTP.
      if (deps.mailer && !stopped) void processOutbox();
      return { kind: 'stored', message };
    },

    processOutbox,

    start() {
      if (!deps.mailer || timer || stopped) return;
      timer = setInterval(() => void processOutbox(), intervalMs);
      timer.unref();
      // Mails left pending by a previous run of the process.
      void processOutbox();
    },

    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer) clearInterval(timer);
        timer = undefined;
        await chain;
        deps.mailer?.close();
      })();
      return stopping;
    },
  };
}
