import {
  ADMIN_MESSAGES,
  LEAD_CSV_COLUMNS,
  type AdminLead,
  type AdminLeadList,
  type AdminLeadListQuery,
  type AdminLeadUpdate,
  type LeadMailState,
} from '@site/contracts/admin';
import type { LeadPosition, LeadsRepository, StoredLead } from './leads-repository';
import type { Clock } from '../lib/clock';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { InvalidInputError, NotFoundError } from '../lib/domain-errors';
import { csvLine } from './csv';
import { isRecordKey } from '@site/contracts/text';


export interface LeadsService {
  list(query: AdminLeadListQuery): Promise<AdminLeadList>;
  update(id: string, update: AdminLeadUpdate): Promise<AdminLead>;
  /**
   * Every message matching the query, as CSV (formula-safe), in pieces: the header line, then the lines of one
   * batch of messages at a time, each read when the consumer asks for it (the HTTP answer streams them). Stopping
   * the iteration stops the reading.
   */
  exportCsv(query: Pick<AdminLeadListQuery, 'q' | 'filter'>): AsyncGenerator<string, void, undefined>;
}

export const INVALID_LEAD_CURSOR = 'The cursor is not valid. Start again from the first page.';
export const SEARCH_TAKES_NO_CURSOR = 'A search answers one page, best match first: send no cursor with q.';

type LeadCursor = LeadPosition & { towards: 'older' | 'newer' };

/** The opaque cursor of a page: which way to read and from which message, as base64url JSON (as GET /api/posts). */
export function encodeLeadCursor(towards: 'older' | 'newer', lead: Pick<StoredLead, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([towards === 'older' ? 'o' : 'n', lead.createdAt, lead.id])).toString('base64url');
}

export function decodeLeadCursor(cursor: string): LeadCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && (value[0] === 'o' || value[0] === 'n') && value.slice(1).every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      const [way, createdAt, id] = value as [string, string, string];
      return { towards: way === 'o' ? 'older' : 'newer', createdAt, id };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_LEAD_CURSOR, { code: 'invalid_cursor' });
}

/** The owner-mail state a person understands: a pending mail that failed before is being retried. */
export function mailState(l: Pick<StoredLead, 'mailStatus' | 'mailAttempts'>): LeadMailState {
  if (l.mailStatus === 'sent' || l.mailStatus === 'failed' || l.mailStatus === 'disabled') return l.mailStatus;
  return l.mailAttempts > 0 ? 'retrying' : 'pending';
}

export function toAdminLead(l: StoredLead): AdminLead {
  return {
    id: l.id,
    createdAt: l.createdAt,
    name: l.name,
    email: l.email,
    company: l.company,
    subject: l.subject,
    message: l.message,
    userAgent: l.userAgent,
    read: l.readAt !== null,
    readAt: l.readAt,
    handled: l.handledAt !== null,
    handledAt: l.handledAt,
    mail: {
      state: mailState(l),
      attempts: l.mailAttempts,
      lastError: l.mailLastError,
      sentAt: l.mailSentAt,
      nextAttemptAt: l.mailNextAttemptAt,
    },
  };
}

export function createLeadsService(deps: {
  leads: LeadsRepository;
  clock: Clock;
  /** Messages read per query of the CSV export (the repository's default, 200, when absent). */
  exportBatchSize?: number;
}): LeadsService {
  return {
    async list(query) {
      const counts = deps.leads.counts();
      if (query.q) {
        // A search is one ranked page (the best `limit` matches); a rank is no stable position to page from.
        if (query.cursor) throw new InvalidInputError(SEARCH_TAKES_NO_CURSOR, { code: 'invalid_cursor' });
        const [found, all] = await Promise.all([deps.leads.search({ q: query.q, filter: query.filter, limit: query.limit }), counts]);
        return {
          leads: found.leads.map(toAdminLead),
          total: found.total,
          totalIsLowerBound: found.totalIsLowerBound,
          limit: query.limit,
          nextCursor: null,
          prevCursor: null,
          unread: all.unread,
          counts: all,
        };
      }
      const at = query.cursor ? decodeLeadCursor(query.cursor) : undefined;
      const [page, all] = await Promise.all([
        deps.leads.keysetPage({ filter: query.filter, limit: query.limit, older: at?.towards === 'older' ? at : undefined, newer: at?.towards === 'newer' ? at : undefined }),
        counts,
      ]);
      const first = page.leads[0];
      const last = page.leads[page.leads.length - 1];
      const towards = at?.towards ?? 'older';
      return {
        leads: page.leads.map(toAdminLead),
        total: all[query.filter],
        limit: query.limit,
        // Read older: another page beyond when `more`; read newer: the page we came from lies older.
        nextCursor: last && (towards === 'newer' || page.more) ? encodeLeadCursor('older', last) : null,
        prevCursor: first && at && (towards === 'older' || page.more) ? encodeLeadCursor('newer', first) : null,
        unread: all.unread,
        counts: all,
      };
    },

    async update(id, update) {
      const existing = isRecordKey(id) ? await deps.leads.findById(id) : undefined;
      if (!existing) throw new NotFoundError(ADMIN_MESSAGES.leadNotFound);
      const now = deps.clock().toISOString();
      // Setting a flag that is already set keeps its original time.
      const readAt = update.read === undefined ? undefined : update.read ? (existing.readAt ?? now) : null;
      const handledAt = update.handled === undefined ? undefined : update.handled ? (existing.handledAt ?? now) : null;
      await deps.leads.setFlags(id, { readAt, handledAt });
      return toAdminLead((await deps.leads.findById(id))!);
    },

    async *exportCsv(query) {
      yield csvLine(LEAD_CSV_COLUMNS);
      // Every message, newest first, a batch at a time (keyset): memory is one batch's whatever the inbox holds.
      for await (const batch of deps.leads.batches({ q: query.q, filter: query.filter, batchSize: deps.exportBatchSize })) {
        const lines = batch.map((l) => csvLine([l.createdAt, l.name, l.email, l.company, l.subject, l.message, l.readAt ? 'yes' : 'no', l.handledAt ? 'yes' : 'no', mailState(l)])).join('');
        // The batch's leads are not needed past their lines: let them die young while the lines are compressed and
        // sent and the next batch is read (held until then, they were promoted and grew the old generation).
        batch.length = 0;
        yield lines;
        // Other requests get their turn between batches (SQLite's queries run on this thread).
        await yieldToEventLoop();
      }
    },
  };
}
