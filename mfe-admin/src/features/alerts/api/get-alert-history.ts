import { alertHistorySchema, type AlertHistory } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/alerts: the alert history, newest first. */
export function getAlertHistory(limit: number, signal?: AbortSignal): Promise<AlertHistory> {
  return adminRequest(`/api/admin/alerts?limit=${limit}`, alertHistorySchema, { signal });
}
