import { alertEntrySchema, type AlertEntry } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** POST /api/admin/alerts/:id/acknowledge */
export function acknowledgeAlert(id: string): Promise<AlertEntry> {
  return adminRequest(`/api/admin/alerts/${encodeURIComponent(id)}/acknowledge`, alertEntrySchema, { method: 'POST' });
}
