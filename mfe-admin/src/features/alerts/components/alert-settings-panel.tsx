import * as Switch from '@radix-ui/react-switch';
import { useId, useState, type FormEvent } from 'react';
import {
  ALERT_GROUPS,
  ALERT_TYPE_LABELS,
  THRESHOLD_MESSAGE,
  alertThresholdInputSchema,
  type AlertGroup,
  type AlertSetting,
  type AlertSettings,
  type AlertType,
} from '@site/contracts/admin';
import { ApiError, Button, cn, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { useResource } from '../../../lib/use-resource';
import { getAlertSettings } from '../api/get-alert-settings';
import { updateAlertSetting } from '../api/update-alert-setting';

const GROUP_LABELS: Record<AlertGroup, string> = {
  git: 'Deployments and code',
  infrastructure: 'Infrastructure',
  security: 'Security',
  application: 'Application',
};

const WHAT_RAISES: Partial<Record<AlertType, string>> = {
  diskSpace: 'Disk use of the data volume above the threshold',
  memory: 'Memory use above the threshold',
  cpu: 'CPU load above the threshold',
  failedLogins: 'A burst of failed admin logins from one address',
  hackAttempts: 'Rejected webhook signatures and other refused requests',
  healthCheck: 'The database or a remote stops answering',
  errors: 'Server errors (5xx answers)',
  webhookDelivery: 'An outgoing webhook endpoint failed for 24 hours and was turned off',
};

/** A labelled Radix switch (role switch, Space toggles). */
function Toggle({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <Switch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={onChange}
      aria-label={label}
      className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-transparent bg-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary dark:bg-slate-600 dark:data-[state=checked]:bg-blue-500"
    >
      <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.3rem]" />
    </Switch.Root>
  );
}

function ThresholdForm({ setting, onSaved }: { setting: AlertSetting; onSaved: (s: AlertSettings) => void }) {
  const label = ALERT_TYPE_LABELS[setting.type];
  const [value, setValue] = useState(String(setting.threshold ?? ''));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // The same schema the API validates with: whole numbers 1–100 only.
    const parsed = alertThresholdInputSchema.safeParse(value);
    if (!parsed.success) {
      setError(THRESHOLD_MESSAGE);
      notify.error('Failed to update threshold', { description: THRESHOLD_MESSAGE });
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const settings = await updateAlertSetting(setting.type, { threshold: parsed.data });
      onSaved(settings);
      setValue(String(parsed.data));
      notify.success('Threshold updated', { description: `${label} alerts at ${parsed.data}%.` });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return;
      const message = errorMessage(err, '');
      if (err instanceof ApiError && err.status === 400) setError(message || THRESHOLD_MESSAGE);
      notify.error('Failed to update threshold', message ? { description: message } : undefined);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex w-full flex-wrap items-start gap-2 sm:w-auto">
      <div>
        <label htmlFor={id} className="sr-only">
          {label} threshold (percent, 1 to 100)
        </label>
        <div className="flex items-center gap-1">
          <input
            id={id}
            inputMode="numeric"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="w-20 rounded-lg border border-border bg-bg px-2.5 py-1.5 text-right text-sm text-fg focus:border-primary focus:outline-2 focus:outline-ring aria-[invalid=true]:border-danger"
          />
          <span aria-hidden="true" className="text-sm text-muted-fg">
            %
          </span>
        </div>
        {error && (
          <p id={`${id}-error`} className="mt-1 max-w-48 text-xs font-medium text-danger">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" size="sm" variant="secondary" disabled={saving} aria-busy={saving || undefined}>
        {saving ? 'Saving…' : 'Save'}
        {' '}<span className="sr-only">{label} threshold</span>
      </Button>
    </form>
  );
}

/**
 * Alert settings, stored by the server: a switch per alert type, an email switch, and thresholds for disk,
 * memory and CPU. A switch that fails to save flips back with 'Failed to update alert'.
 */
export function AlertSettingsPanel() {
  const { data, error, reload, setData } = useResource('alert-settings', getAlertSettings);
  const [pending, setPending] = useState<string | null>(null);

  async function toggle(setting: AlertSetting, field: 'enabled' | 'email', value: boolean) {
    const key = `${setting.type}:${field}`;
    setPending(key);
    setData((current) => (current ? { ...current, settings: current.settings.map((s) => (s.type === setting.type ? { ...s, [field]: value } : s)) } : current!));
    try {
      setData(await updateAlertSetting(setting.type, { [field]: value }));
    } catch (err) {
      setData((current) => (current ? { ...current, settings: current.settings.map((s) => (s.type === setting.type ? { ...s, [field]: !value } : s)) } : current!));
      if (!(err instanceof ApiError && err.status === 401)) notify.error('Failed to update alert');
    } finally {
      setPending(null);
    }
  }

  return (
    <Panel
      title="Alert settings"
      description={
        data && !data.emailConfigured
          ? 'Alerts are recorded in the history. Email needs SMTP_URL on the server, so the email switches are off.'
          : 'Alerts are recorded in the history and, when email is on, mailed to the owner (at most one mail per type every 15 minutes).'
      }
    >
      {error && !data ? (
        <LoadFailed title="Could not load the alert settings" message={errorMessage(error, 'The server did not answer.')} onRetry={reload} />
      ) : !data ? (
        <LoadingRows label="Loading alert settings…" rows={4} />
      ) : (
        <div className="grid gap-4 2xl:grid-cols-2">
          {(Object.keys(ALERT_GROUPS) as AlertGroup[]).map((group) => (
            <fieldset key={group} className="min-w-0 rounded-xl border border-border p-3 sm:p-4">
              <legend className="px-1 text-sm font-bold text-fg">{GROUP_LABELS[group]}</legend>
              <ul className="divide-y divide-border">
                {data.settings
                  .filter((s) => s.group === group)
                  .map((s) => {
                    const label = ALERT_TYPE_LABELS[s.type];
                    return (
                      <li key={s.type} className="flex flex-col gap-2 py-3 first:pt-1 last:pb-1 sm:flex-row sm:items-center sm:justify-between">
                        <div className="min-w-0">
                          <p className="font-semibold text-fg">{label}</p>
                          {WHAT_RAISES[s.type] && <p className="text-xs text-muted-fg">{WHAT_RAISES[s.type]}</p>}
                        </div>
                        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                          {s.threshold !== null && <ThresholdForm setting={s} onSaved={setData} />}
                          <span className={cn('flex items-center gap-2 text-xs text-muted-fg')}>
                            <Toggle label={`${label} alerts`} checked={s.enabled} disabled={pending === `${s.type}:enabled`} onChange={(v) => toggle(s, 'enabled', v)} />
                            <span aria-hidden="true">On</span>
                          </span>
                          <span className="flex items-center gap-2 text-xs text-muted-fg">
                            <Toggle
                              label={`Email ${label.toLowerCase()} alerts`}
                              checked={s.email && data.emailConfigured}
                              disabled={!data.emailConfigured || pending === `${s.type}:email`}
                              onChange={(v) => toggle(s, 'email', v)}
                            />
                            <span aria-hidden="true">Email</span>
                          </span>
                        </div>
                      </li>
                    );
                  })}
              </ul>
            </fieldset>
          ))}
        </div>
      )}
    </Panel>
  );
}
