import { useQuery } from '@tanstack/react-query';
import { adminFunnelSchema, type AdminFunnel } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/funnel: the last 7 and 30 days of the stored tracking events and contact messages. */
export function getFunnel(signal?: AbortSignal): Promise<AdminFunnel> {
  return adminRequest('/api/admin/funnel', adminFunnelSchema, { signal });
}

export function useFunnelQuery() {
  return useQuery({ queryKey: ['funnel'], queryFn: ({ signal }) => getFunnel(signal) });
}
