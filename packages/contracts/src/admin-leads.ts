import { z } from 'zod';
import { safeChars } from './text';

/** The admin API's inbox of contact messages (`/api/admin/leads/*`). */

// ------------------------------------------------------------------------------------------------ leads

/** Owner-mail state of a contact message: queued, sent, retrying after a failure, given up, or no SMTP. */
export const LEAD_MAIL_STATES = ['pending', 'sent', 'retrying', 'failed', 'disabled'] as const;
export type LeadMailState = (typeof LEAD_MAIL_STATES)[number];
export const LEAD_FILTERS = ['all', 'unread', 'read', 'handled', 'open'] as const;

/** `GET /api/admin/leads` query: newest first; `q` searches name, email, company, subject, message (full-text: every word, the last one as a prefix; best match first among the newest 1,000 matches; `total` counts the matches up to 1,000, `totalIsLowerBound` says when more match). */
export const adminLeadListQuerySchema = z.object({
  q: z.string().trim().max(200).apply(safeChars()).optional(),
  /** unread: not read yet; read: read; handled: marked handled; open: not handled. */
  filter: z.enum(LEAD_FILTERS).default('all'),
  /**
   * The opaque `nextCursor` (older messages) or `prevCursor` (newer ones) of the page on screen, with the same `q`
   * and `filter`; none for the newest page. With `q` the answer is one ranked page (the best `limit` matches) and
   * takes no cursor.
   */
  cursor: z.string().trim().max(500).apply(safeChars()).optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(25),
});
export type AdminLeadListQueryInput = z.input<typeof adminLeadListQuerySchema>;
export type AdminLeadListQuery = z.output<typeof adminLeadListQuerySchema>;

export const adminLeadSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  subject: z.string().nullable(),
  message: z.string(),
  /** The browser that sent it, as it said (for spotting bots); the client address is only stored hashed. */
  userAgent: z.string().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  handled: z.boolean(),
  handledAt: z.string().nullable(),
  mail: z.object({
    state: z.enum(LEAD_MAIL_STATES),
    attempts: z.number().int().min(0),
    lastError: z.string().nullable(),
    sentAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
  }),
});
export type AdminLead = z.infer<typeof adminLeadSchema>;

export const adminLeadListSchema = z.object({
  leads: z.array(adminLeadSchema),
  /**
   * Messages matching the filter: all pages, not just this one. With `q`, the matches counted up to 1,000 (a search
   * reads no further than the matches it ranks): see `totalIsLowerBound`.
   */
  total: z.number().int().min(0),
  /** With `q` only: true when more messages match than `total` (it stopped counting at 1,000): show "1,000+". */
  totalIsLowerBound: z.boolean().optional(),
  limit: z.number().int().min(1),
  /** Pass back as `cursor` for the older messages; null on the last page (and with `q`). */
  nextCursor: z.string().nullable(),
  /** Pass back as `cursor` for the newer messages; null on the newest page (and with `q`). */
  prevCursor: z.string().nullable(),
  /** Unread messages over the whole inbox (ignores the filter). */
  unread: z.number().int().min(0),
  /** Messages per filter over the whole inbox (ignores `q`), from counters the database keeps. */
  counts: z.object({ all: z.number().int(), unread: z.number().int(), read: z.number().int(), handled: z.number().int(), open: z.number().int() }),
});
export type AdminLeadList = z.infer<typeof adminLeadListSchema>;

/** `PATCH /api/admin/leads/:id` body: at least one flag, and nothing else. Answers `adminLeadSchema`; unknown id -> 404. */
export const adminLeadUpdateSchema = z
  .strictObject({ read: z.boolean().optional(), handled: z.boolean().optional() })
  .refine((v) => v.read !== undefined || v.handled !== undefined, { error: 'Send read or handled' });
export type AdminLeadUpdate = z.infer<typeof adminLeadUpdateSchema>;

// `GET /api/admin/leads/export.csv` (same `q` and `filter`): text/csv attachment, every matching message, columns
// LEAD_CSV_COLUMNS; cells starting with = + - @ (or tab/CR) are prefixed with ' so spreadsheets do not run them.
export const LEAD_CSV_COLUMNS = ['createdAt', 'name', 'email', 'company', 'subject', 'message', 'read', 'handled', 'mailState'] as const;
