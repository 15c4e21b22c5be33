import { useQuery } from '@tanstack/react-query';
import { adminHealthSchema, type AdminHealth } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

export const healthKey = ['monitoring', 'health'] as const;

/** GET /api/admin/health: the latest stored results of the server's checks (run every minute). */
export function getHealth(signal?: AbortSignal): Promise<AdminHealth> {
  return adminRequest('/api/admin/health', adminHealthSchema, { signal });
}

export function useHealthQuery() {
  return useQuery({ queryKey: healthKey, queryFn: ({ signal }) => getHealth(signal) });
}
