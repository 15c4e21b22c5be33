import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertEntrySchema, type AlertEntry, type AlertHistory } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { alertHistoryKey } from './get-alert-history';

/** POST /api/admin/alerts/:id/acknowledge */
export function acknowledgeAlert(id: string): Promise<AlertEntry> {
  return adminRequest(`/api/admin/alerts/${encodeURIComponent(id)}/acknowledge`, alertEntrySchema, { method: 'POST' });
}

/** Acknowledges an alert; the history shows the answer at once (one fewer not acknowledged). */
export function useAcknowledgeAlertMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlert,
    onSuccess: (entry) =>
      client.setQueryData<AlertHistory>(alertHistoryKey, (h) =>
        h ? { ...h, alerts: h.alerts.map((a) => (a.id === entry.id ? entry : a)), unacknowledged: Math.max(0, h.unacknowledged - 1) } : h,
      ),
  });
}
