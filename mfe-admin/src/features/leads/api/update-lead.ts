import { adminLeadSchema, type AdminLead, type AdminLeadUpdate } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** PATCH /api/admin/leads/:id: marks a message read/unread or handled/open. */
export function updateLead(id: string, body: AdminLeadUpdate): Promise<AdminLead> {
  return adminRequest(`/api/admin/leads/${encodeURIComponent(id)}`, adminLeadSchema, { method: 'PATCH', json: body });
}
