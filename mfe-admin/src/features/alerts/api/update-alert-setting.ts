import { alertSettingsSchema, type AlertSettings, type AlertSettingUpdate, type AlertType } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** PATCH /api/admin/alerts/settings/:type: enabled, email or threshold (1–100, diskSpace/memory/cpu only). */
export function updateAlertSetting(type: AlertType, body: AlertSettingUpdate): Promise<AlertSettings> {
  return adminRequest(`/api/admin/alerts/settings/${type}`, alertSettingsSchema, { method: 'PATCH', json: body });
}
