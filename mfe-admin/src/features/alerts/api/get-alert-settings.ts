import { useQuery } from '@tanstack/react-query';
import { alertSettingsSchema, type AlertSettings } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

export const alertSettingsKey = ['alerts', 'settings'] as const;

/** GET /api/admin/alerts/settings: one entry per alert type, and whether alerts can be emailed. */
export function getAlertSettings(signal?: AbortSignal): Promise<AlertSettings> {
  return adminRequest('/api/admin/alerts/settings', alertSettingsSchema, { signal });
}

export function useAlertSettingsQuery() {
  return useQuery({ queryKey: alertSettingsKey, queryFn: ({ signal }) => getAlertSettings(signal) });
}
