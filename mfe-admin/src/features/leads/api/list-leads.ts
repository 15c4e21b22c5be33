import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminLeadListSchema, type AdminLeadList, type AdminLeadListQueryInput } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** The query string shared by the list and the CSV export. */
export function leadQueryString(query: AdminLeadListQueryInput): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.filter && query.filter !== 'all') params.set('filter', query.filter);
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export const leadsKey = ['leads'] as const;

/** GET /api/admin/leads: contact messages, newest first. */
export function listLeads(query: AdminLeadListQueryInput, signal?: AbortSignal): Promise<AdminLeadList> {
  return adminRequest(`/api/admin/leads${leadQueryString(query)}`, adminLeadListSchema, { signal });
}

/** GET /api/admin/leads/export.csv: every message matching the same search and filter, as a download. */
export const leadsExportUrl = (query: AdminLeadListQueryInput) => `/api/admin/leads/export.csv${leadQueryString({ q: query.q, filter: query.filter })}`;

/** One page of messages (by cursor); while another search, filter or page loads, the last one stays on screen. */
export function useLeadsQuery(query: AdminLeadListQueryInput) {
  return useQuery({ queryKey: [...leadsKey, query], queryFn: ({ signal }) => listLeads(query, signal), placeholderData: keepPreviousData });
}
