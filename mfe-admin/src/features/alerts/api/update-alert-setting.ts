import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSettingsSchema, type AlertSettings, type AlertSettingUpdate, type AlertType } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';
import { alertSettingsKey } from './get-alert-settings';

/** PATCH /api/admin/alerts/settings/:type: enabled, email or threshold (1–100, diskSpace/memory/cpu only). */
export function updateAlertSetting(type: AlertType, body: AlertSettingUpdate): Promise<AlertSettings> {
  return adminRequest(`/api/admin/alerts/settings/${type}`, alertSettingsSchema, { method: 'PATCH', json: body });
}

type Change = { type: AlertType; patch: AlertSettingUpdate };
type Switches = Partial<Record<'enabled' | 'email', boolean>>;

/** The switches of a change (`enabled`, `email`), or their opposite (to flip them back). */
function switches({ patch }: Change, invert = false): Switches {
  const out: Switches = {};
  for (const field of ['enabled', 'email'] as const) if (typeof patch[field] === 'boolean') out[field] = invert ? !patch[field] : patch[field];
  return out;
}

/**
 * Saves one setting. A switch moves at once and flips back if the server refuses (only that switch: another one
 * changed meanwhile keeps its state); a threshold waits for the answer. The answer becomes the settings shown.
 */
export function useUpdateAlertSettingMutation() {
  const client = useQueryClient();
  const apply = (change: Change, fields: Switches) =>
    client.setQueryData<AlertSettings>(alertSettingsKey, (current) =>
      current ? { ...current, settings: current.settings.map((s) => (s.type === change.type ? { ...s, ...fields } : s)) } : current,
    );
  return useMutation({
    mutationFn: ({ type, patch }: Change) => updateAlertSetting(type, patch),
    onMutate: (change) => apply(change, switches(change)),
    onError: (_err, change) => apply(change, switches(change, true)),
    onSuccess: (settings) => client.setQueryData(alertSettingsKey, settings),
  });
}
