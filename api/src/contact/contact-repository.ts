import type { Kysely } from 'kysely';
import type { ContactMessageOutboxRow, MailStatus } from './contact-schema';
import type { InTransaction } from '../db/in-transaction';
import type { Database } from '../db/schema';

export interface StoredContactMessage {
  id: string;
  createdAt: string;
  ipHash: string;
  userAgent: string | null;
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  message: string;
  mailStatus: MailStatus;
  mailAttempts: number;
  mailNextAttemptAt: string | null;
  mailLastError: string | null;
  mailSentAt: string | null;
  /** The request that stored it, if one did (its X-Request-Id). */
  requestId?: string | null;
  /** That request's W3C `traceparent` (its trace and span), continued by the owner mail. */
  traceparent?: string | null;
  /** The contact form's Idempotency-Key for this submission (unique); a repeat with it stores nothing new. */
  idempotencyKey?: string | null;
}

export interface ContactRepository {
  /**
   * Stores the message; with `also`, that write runs in the same transaction (its outgoing events). When a message
   * with the same `idempotencyKey` is already stored, nothing is written (`also` neither) and that message is returned;
   * the unique index decides, so of two racing requests with one key exactly one stores it.
   */
  insert(message: StoredContactMessage, also?: InTransaction): Promise<StoredContactMessage | undefined>;
  findById(id: string): Promise<StoredContactMessage | undefined>;
  /** The message stored with this Idempotency-Key, if any. */
  findByIdempotencyKey(key: string): Promise<StoredContactMessage | undefined>;
  /** Newest first. */
  list(options?: { limit?: number }): Promise<StoredContactMessage[]>;
  /** Messages whose owner mail is pending and due at `now`, oldest first. */
  dueForMail(now: string, limit: number): Promise<StoredContactMessage[]>;
  /**
   * Takes a due message for sending under `claim` (a token of this attempt): true for exactly one caller, of any
   * instance, until `leaseUntil` (then it is due again, so a mail whose instance died mid-send is retried). One atomic
   * UPDATE on both SQLite and PostgreSQL.
   */
  claimForMail(id: string, claim: string, now: string, leaseUntil: string): Promise<boolean>;
  /** Extends the holder's claim to `leaseUntil`; false when `claim` no longer holds the message. */
  renewMailClaim(id: string, claim: string, leaseUntil: string): Promise<boolean>;
  /**
   * Records that SMTP accepted the owner mail. A fact, written whoever holds the claim now (an instance that took the
   * mail over after this one's lease lapsed finds it sent); false when it was already recorded.
   */
  markMailSent(id: string, at: string): Promise<boolean>;
  /** A refusal of this mail (per-mail backoff, or failed for good): only by the holder of `claim`. */
  markMailFailed(id: string, claim: string, update: { attempts: number; error: string; nextAttemptAt: string | null; gaveUp: boolean }): Promise<boolean>;
  /** Gives the mail back, due at once and no attempt counted (the mail server, not the mail, failed): only by the holder of `claim`. */
  releaseMailClaim(id: string, claim: string, error: string): Promise<boolean>;
  /** The per-install salt for IP hashes (created by the migration). */
  ipSalt(): Promise<string>;
}

/** Storage of contact messages and their mail outbox. Same SQL on SQLite and PostgreSQL. */
export function createContactRepository(db: Kysely<Database>): ContactRepository {
  return {
    async insert(m, also) {
      if (also) {
        return db.transaction().execute(async (trx) => {
          const earlier = await createContactRepository(trx).insert(m);
          if (!earlier) await also(trx);
          return earlier;
        });
      }
      const result = await db
        .insertInto('contact_messages')
        .values({
          id: m.id,
          created_at: m.createdAt,
          ip_hash: m.ipHash,
          user_agent: m.userAgent,
          name: m.name,
          email: m.email,
          company: m.company,
          subject: m.subject,
          message: m.message,
          mail_status: m.mailStatus,
          mail_attempts: m.mailAttempts,
          mail_next_attempt_at: m.mailNextAttemptAt,
          mail_last_error: m.mailLastError,
          mail_sent_at: m.mailSentAt,
          request_id: m.requestId ?? null,
          traceparent: m.traceparent ?? null,
          idempotency_key: m.idempotencyKey ?? null,
        })
        // PostgreSQL waits here for a racing insert of the same key to commit (then skips) or roll back (then inserts).
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .executeTakeFirst();
      if (!m.idempotencyKey || Number(result.numInsertedOrUpdatedRows) === 1) return undefined;
      // Deleted in between (the owner removed it): the message is stored afresh.
      return (await createContactRepository(db).findByIdempotencyKey(m.idempotencyKey)) ?? createContactRepository(db).insert(m);
    },

    async findById(id) {
      const row = await db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toStored(row);
    },

    async findByIdempotencyKey(key) {
      const row = await db.selectFrom('contact_messages').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
      return row && toStored(row);
    },

    async list({ limit = 100 } = {}) {
      const rows = await db.selectFrom('contact_messages').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
      return rows.map(toStored);
    },

    async dueForMail(now, limit) {
      const rows = await db
        .selectFrom('contact_messages')
        .selectAll()
        .where('mail_status', '=', 'pending')
        .where((eb) => eb.or([eb('mail_next_attempt_at', 'is', null), eb('mail_next_attempt_at', '<=', now)]))
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },

    async claimForMail(id, claim, now, leaseUntil) {
      const result = await db
        .updateTable('contact_messages')
        .set({ mail_next_attempt_at: leaseUntil, mail_claim: claim })
        .where('id', '=', id)
        .where('mail_status', '=', 'pending')
        .where((eb) => eb.or([eb('mail_next_attempt_at', 'is', null), eb('mail_next_attempt_at', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async renewMailClaim(id, claim, leaseUntil) {
      const result = await db
        .updateTable('contact_messages')
        .set({ mail_next_attempt_at: leaseUntil })
        .where('id', '=', id)
        .where('mail_claim', '=', claim)
        .where('mail_status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async markMailSent(id, at) {
      const result = await db
        .updateTable('contact_messages')
        .set((eb) => ({
          mail_status: 'sent',
          mail_sent_at: at,
          mail_next_attempt_at: null,
          mail_last_error: null,
          mail_claim: null,
          mail_attempts: eb('mail_attempts', '+', 1),
        }))
        .where('id', '=', id)
        .where('mail_status', '!=', 'sent')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async markMailFailed(id, claim, { attempts, error, nextAttemptAt, gaveUp }) {
      const result = await db
        .updateTable('contact_messages')
        .set({
          mail_status: gaveUp ? 'failed' : 'pending',
          mail_attempts: attempts,
          mail_last_error: error.slice(0, 500),
          mail_next_attempt_at: nextAttemptAt,
          mail_claim: null,
        })
        .where('id', '=', id)
        .where('mail_claim', '=', claim)
        .where('mail_status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseMailClaim(id, claim, error) {
      const result = await db
        .updateTable('contact_messages')
        .set({ mail_next_attempt_at: null, mail_claim: null, mail_last_error: error.slice(0, 500) })
        .where('id', '=', id)
        .where('mail_claim', '=', claim)
        .where('mail_status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async ipSalt() {
      const row = await db.selectFrom('contact_settings').select('value').where('key', '=', 'ip_salt').executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

function toStored(row: ContactMessageOutboxRow): StoredContactMessage {
  return {
    id: row.id,
    createdAt: row.created_at,
    ipHash: row.ip_hash,
    userAgent: row.user_agent,
    name: row.name,
    email: row.email,
    company: row.company,
    subject: row.subject,
    message: row.message,
    mailStatus: row.mail_status,
    mailAttempts: Number(row.mail_attempts),
    mailNextAttemptAt: row.mail_next_attempt_at,
    mailLastError: row.mail_last_error,
    mailSentAt: row.mail_sent_at,
    requestId: row.request_id,
    traceparent: row.traceparent ?? null,
    idempotencyKey: row.idempotency_key ?? null,
  };
}
