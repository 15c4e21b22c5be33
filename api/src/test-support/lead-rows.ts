import type { ContactMessagesTable } from '../contact/contact-schema';

/**
 * A contact message's row for SQL-level tests of the leads' tables: the n-th message, a minute after the (n-1)-th
 * from `t0`, id `lead-<n, six digits>`, from "Visitor n", mail sent; `fields` override any column.
 */
export function leadRow(n: number, fields: Partial<ContactMessagesTable> = {}, t0 = Date.parse('2026-03-01T00:00:00.000Z')): ContactMessagesTable {
  return {
    id: `lead-${String(n).padStart(6, '0')}`,
    created_at: new Date(t0 + n * 60_000).toISOString(),
    ip_hash: 'hash',
    user_agent: null,
    name: `Visitor ${n}`,
    email: `visitor${n}@example.com`,
    company: null,
    subject: null,
    message: 'Hello, please call me back.',
    mail_status: 'sent',
    mail_attempts: 1,
    mail_next_attempt_at: null,
    mail_last_error: null,
    mail_sent_at: null,
    request_id: null,
    read_at: null,
    handled_at: null,
    ...fields,
  };
}
