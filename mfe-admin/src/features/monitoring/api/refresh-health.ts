import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminHealthSchema, type AdminHealth } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { healthKey } from './get-health';

/** POST /api/admin/health/refresh: runs every check now and answers the results. */
export function refreshHealth(): Promise<AdminHealth> {
  return adminRequest('/api/admin/health/refresh', adminHealthSchema, { method: 'POST' });
}

/** Runs the checks now; their answer is the health shown (on the dashboard and the alerts screen alike). */
export function useRefreshHealthMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: refreshHealth, onSuccess: (health) => client.setQueryData(healthKey, health) });
}
