import { adminHealthSchema, type AdminHealth } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/health: the latest stored results of the server's checks (run every minute). */
export function getHealth(signal?: AbortSignal): Promise<AdminHealth> {
  return adminRequest('/api/admin/health', adminHealthSchema, { signal });
}
