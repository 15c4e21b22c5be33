import { useQuery } from '@tanstack/react-query';
import { alertHistorySchema, type AlertHistory } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

export const ALERT_HISTORY_LIMIT = 200;
const POLL_MS = 30_000;
export const alertHistoryKey = ['alerts', 'history'] as const;

/** GET /api/admin/alerts: the alert history, newest first. */
export function getAlertHistory(limit: number, signal?: AbortSignal): Promise<AlertHistory> {
  return adminRequest(`/api/admin/alerts?limit=${limit}`, alertHistorySchema, { signal });
}

/** The history, asked again every 30 seconds while the page is visible (not in a background tab). */
export function useAlertHistoryQuery() {
  return useQuery({ queryKey: alertHistoryKey, queryFn: ({ signal }) => getAlertHistory(ALERT_HISTORY_LIMIT, signal), refetchInterval: POLL_MS });
}
