import { useQuery } from '@tanstack/react-query';
import { adminTrafficSchema, type AdminTraffic } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/traffic: recent requests by client address, classified. */
export function getTraffic(signal?: AbortSignal): Promise<AdminTraffic> {
  return adminRequest('/api/admin/traffic', adminTrafficSchema, { signal });
}

export function useTrafficQuery() {
  return useQuery({ queryKey: ['monitoring', 'traffic'], queryFn: ({ signal }) => getTraffic(signal) });
}
