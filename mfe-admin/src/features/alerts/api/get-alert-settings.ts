import { alertSettingsSchema, type AlertSettings } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/alerts/settings: one entry per alert type, and whether alerts can be emailed. */
export function getAlertSettings(signal?: AbortSignal): Promise<AlertSettings> {
  return adminRequest('/api/admin/alerts/settings', alertSettingsSchema, { signal });
}
