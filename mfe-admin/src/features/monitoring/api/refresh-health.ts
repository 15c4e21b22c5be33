import { adminHealthSchema, type AdminHealth } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/health/refresh: runs every check now and answers the results. */
export function refreshHealth(): Promise<AdminHealth> {
  return adminRequest('/api/admin/health/refresh', adminHealthSchema, { method: 'POST' });
}
