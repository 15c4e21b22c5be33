import * as Switch from '@radix-ui/react-switch';
import { ALERT_GROUPS, ALERT_TYPE_LABELS, type AlertGroup, type AlertSetting, type AlertType } from '@site/contracts/admin';
import { ApiError, cn, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { useAlertSettingsQuery } from '../api/get-alert-settings';
import { useUpdateAlertSettingMutation } from '../api/update-alert-setting';
import { ThresholdForm } from './threshold-form';

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

/** One alert type: what raises it, its threshold (disk, memory, CPU), and its On and Email switches. */
function AlertSettingRow({ setting: s, emailConfigured }: { setting: AlertSetting; emailConfigured: boolean }) {
  const update = useUpdateAlertSettingMutation();
  const label = ALERT_TYPE_LABELS[s.type];
  const pending = update.isPending ? Object.keys(update.variables.patch)[0] : null;
  const toggle = (field: 'enabled' | 'email', value: boolean) =>
    update.mutate(
      { type: s.type, patch: { [field]: value } },
      {
        onError: (err) => {
          if (!(err instanceof ApiError && err.status === 401)) notify.error('Failed to update alert');
        },
      },
    );
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-1 last:pb-1 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-fg">{label}</p>
        {WHAT_RAISES[s.type] && <p className="text-xs text-muted-fg">{WHAT_RAISES[s.type]}</p>}
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {s.threshold !== null && <ThresholdForm setting={s} />}
        <span className={cn('flex items-center gap-2 text-xs text-muted-fg')}>
          <Toggle label={`${label} alerts`} checked={s.enabled} disabled={pending === 'enabled'} onChange={(v) => toggle('enabled', v)} />
          <span aria-hidden="true">On</span>
        </span>
        <span className="flex items-center gap-2 text-xs text-muted-fg">
          <Toggle
            label={`Email ${label.toLowerCase()} alerts`}
            checked={s.email && emailConfigured}
            disabled={!emailConfigured || pending === 'email'}
            onChange={(v) => toggle('email', v)}
          />
          <span aria-hidden="true">Email</span>
        </span>
      </div>
    </li>
  );
}

/**
 * Alert settings, stored by the server: a switch per alert type, an email switch, and thresholds for disk,
 * memory and CPU. A switch that fails to save flips back with 'Failed to update alert'.
 */
export function AlertSettingsPanel() {
  const { data, error, refetch } = useAlertSettingsQuery();

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
        <LoadFailed title="Could not load the alert settings" message={errorMessage(error, 'The server did not answer.')} onRetry={() => void refetch()} />
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
                  .map((s) => (
                    <AlertSettingRow key={s.type} setting={s} emailConfigured={data.emailConfigured} />
                  ))}
              </ul>
            </fieldset>
          ))}
        </div>
      )}
    </Panel>
  );
}
