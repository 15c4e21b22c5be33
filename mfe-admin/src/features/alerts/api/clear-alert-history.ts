import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { AlertHistory } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { alertHistoryKey } from './get-alert-history';

/** DELETE /api/admin/alerts: clears the whole history (204). */
export async function clearAlertHistory(): Promise<void> {
  await adminRequest('/api/admin/alerts', z.unknown(), { method: 'DELETE' });
}

export function useClearAlertHistoryMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: clearAlertHistory,
    onSuccess: () => client.setQueryData<AlertHistory>(alertHistoryKey, { alerts: [], total: 0, unacknowledged: 0 }),
  });
}
