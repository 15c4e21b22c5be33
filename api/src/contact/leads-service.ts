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
import { NotFoundError } from '../lib/domain-errors';
import { toCsv } from './csv';
import { isRecordKey } from '@site/contracts/text';


export interface LeadsService {
  list(query: AdminLeadListQuery): Promise<AdminLeadList>;
  update(id: string, update: AdminLeadUpdate): Promise<AdminLead>;
  /** Every message matching the query, as CSV (formula-safe). */
  exportCsv(query: Pick<AdminLeadListQuery, 'q' | 'filter'>): Promise<string>;
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

export function createLeadsService(deps: { leads: LeadsRepository; clock: Clock }): LeadsService {
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

    async exportCsv(query) {
      // Every message, newest first, in one read: one consistent view of the inbox, however many there are.
      const leads = await deps.leads.all({ q: query.q, filter: query.filter });
      return toCsv([
        LEAD_CSV_COLUMNS,
        ...leads.map((l) => [
          l.createdAt,
          l.name,
          l.email,
          l.company,
          l.subject,
          l.message,
          l.readAt ? 'yes' : 'no',
          l.handledAt ? 'yes' : 'no',
          mailState(l),
        ]),
      ]);
    },
  };
}
