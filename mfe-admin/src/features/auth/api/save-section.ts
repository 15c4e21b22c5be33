import { adminSessionSchema, type AdminSection, type AdminSession } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** PUT /api/admin/session: remembers the active section in the session. */
export function saveSection(activeSection: AdminSection): Promise<AdminSession> {
  return adminRequest('/api/admin/session', adminSessionSchema, { method: 'PUT', json: { activeSection } });
}
