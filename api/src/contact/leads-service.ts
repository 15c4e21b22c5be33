import {
  ADMIN_MESSAGES,
  LEAD_CSV_COLUMNS,
  type AdminLead,
  type AdminLeadList,
  type AdminLeadListQuery,
  type AdminLeadUpdate,
  type LeadMailState,
} from '@site/contracts/admin';
import type { LeadsRepository, StoredLead } from './leads-repository';
import type { Clock } from '../lib/clock';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { NotFoundError } from '../lib/domain-errors';
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
      const [page, unread] = await Promise.all([
        deps.leads.page({ q: query.q, filter: query.filter, offset: (query.page - 1) * query.limit, limit: query.limit }),
        deps.leads.unreadCount(),
      ]);
      return { leads: page.leads.map(toAdminLead), total: page.total, page: query.page, limit: query.limit, unread };
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
        let lines = '';
        for (const l of batch) {
          lines += csvLine([l.createdAt, l.name, l.email, l.company, l.subject, l.message, l.readAt ? 'yes' : 'no', l.handledAt ? 'yes' : 'no', mailState(l)]);
        }
        yield lines;
        // Other requests get their turn between batches (SQLite's queries run on this thread).
        await yieldToEventLoop();
      }
    },
  };
}
