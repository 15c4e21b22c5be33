import type { Selectable } from 'kysely';

export type MailStatus = 'pending' | 'sent' | 'failed' | 'disabled';

export interface ContactMessagesTable {
  id: string;
  created_at: string;
  /** SHA-256 of the client IP with the per-install salt; never the IP itself. */
  ip_hash: string;
  user_agent: string | null;
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  message: string;
  mail_status: MailStatus;
  mail_attempts: number;
  mail_next_attempt_at: string | null;
  mail_last_error: string | null;
  mail_sent_at: string | null;
  /** The token of the outbox's claim on the owner mail (migration 0035): only its holder renews or releases it; null when free. */
  mail_claim?: string | null;
  /** The request that stored it (X-Request-Id), for the mail's log lines (migration 0014). */
  request_id: string | null;
  /**
   * That request's W3C `traceparent`, which the owner mail's own `traceparent` continues (migration 0026). Only the
   * mail outbox reads it (ContactMessageOutboxRow); optional to write (null).
   */
  traceparent?: string | null;
  /**
   * The Idempotency-Key the contact form sent with it (migration 0034, unique): a repeat of the submission finds this
   * message instead of storing another. Null for a message sent without one.
   */
  idempotency_key?: string | null;
  /** Admin inbox state (migration 0005): when the owner read it and marked it handled. */
  read_at: string | null;
  handled_at: string | null;
}

export interface ContactSettingsTable {
  key: string;
  value: string;
}

/** Messages per (read, handled) state, 0 or 1 each, kept by triggers (migration 0020): the inbox's counts. */
export interface ContactMessageCountsTable {
  is_read: number;
  is_handled: number;
  messages: number;
}

export interface ContactTables {
  contact_messages: ContactMessagesTable;
  contact_message_counts: ContactMessageCountsTable;
  contact_settings: ContactSettingsTable;
}

/** A message as the leads inbox and export read it. */
export type ContactMessageRow = Selectable<Omit<ContactMessagesTable, 'traceparent' | 'idempotency_key' | 'mail_claim'>>;
/** A message as the mail outbox reads it: with the trace of the request that stored it. */
export type ContactMessageOutboxRow = Selectable<ContactMessagesTable>;
