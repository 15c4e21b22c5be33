import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminLeadSchema, type AdminLead, type AdminLeadList, type AdminLeadUpdate } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { leadsKey } from './list-leads';

/** PATCH /api/admin/leads/:id: marks a message read/unread or handled/open. */
export function updateLead(id: string, body: AdminLeadUpdate): Promise<AdminLead> {
  return adminRequest(`/api/admin/leads/${encodeURIComponent(id)}`, adminLeadSchema, { method: 'PATCH', json: body });
}

/**
 * Marks a message; every cached page holding it shows the answer, and its unread count moves with it. The pages are
 * not asked again: a message marked read stays in view under 'Unread' until the list is reloaded.
 */
export function useUpdateLeadMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lead, patch }: { lead: AdminLead; patch: AdminLeadUpdate }) => updateLead(lead.id, patch),
    onSuccess: (updated, { lead }) =>
      client.setQueriesData<AdminLeadList>({ queryKey: leadsKey }, (d) => {
        if (!d || !d.leads.some((l) => l.id === updated.id)) return d;
        const unreadDelta = (updated.read ? 0 : 1) - (lead.read ? 0 : 1);
        return { ...d, leads: d.leads.map((l) => (l.id === updated.id ? updated : l)), unread: Math.max(0, d.unread + unreadDelta) };
      }),
  });
}
