import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ALERT_TYPE_LABELS, THRESHOLD_MESSAGE, alertThresholdInputSchema, type AlertSetting } from '@site/contracts/admin';
import { ApiError, Button, notify } from '@site/ui';
import { errorMessage } from '../../../lib/admin-request';
import { useUpdateAlertSettingMutation } from '../api/update-alert-setting';

/** The form's one field, checked with the schema the API validates with: whole numbers 1–100 only. */
const thresholdFormSchema = z.object({ threshold: alertThresholdInputSchema });

/** A threshold in percent (disk, memory, CPU) with its own Save; a refusal says why next to the field and in a toast. */
export function ThresholdForm({ setting }: { setting: AlertSetting }) {
  const label = ALERT_TYPE_LABELS[setting.type];
  const id = useId();
  const update = useUpdateAlertSettingMutation();
  // Errors stay until the next Save, and any change clears them (not re-checked while typing).
  const form = useForm({ defaultValues: { threshold: String(setting.threshold ?? '') }, resolver: zodResolver(thresholdFormSchema), reValidateMode: 'onSubmit' });
  const error = form.formState.errors.threshold?.message;

  const onValid = ({ threshold }: { threshold: number }) =>
    update.mutate(
      { type: setting.type, patch: { threshold } },
      {
        onSuccess: () => {
          form.reset({ threshold: String(threshold) });
          notify.success('Threshold updated', { description: `${label} alerts at ${threshold}%.` });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 401) return;
          const message = errorMessage(err, '');
          if (err instanceof ApiError && err.status === 400) form.setError('threshold', { type: 'server', message: message || THRESHOLD_MESSAGE });
          notify.error('Failed to update threshold', message ? { description: message } : undefined);
        },
      },
    );
  const onInvalid = () => notify.error('Failed to update threshold', { description: THRESHOLD_MESSAGE });

  return (
    <form onSubmit={(e) => form.handleSubmit(onValid, onInvalid)(e)} noValidate className="flex w-full flex-wrap items-start gap-2 sm:w-auto">
      <div>
        <label htmlFor={id} className="sr-only">
          {label} threshold (percent, 1 to 100)
        </label>
        <div className="flex items-center gap-1">
          <input
            id={id}
            inputMode="numeric"
            {...form.register('threshold', { onChange: () => form.clearErrors('threshold') })}
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
      <Button type="submit" size="sm" variant="secondary" disabled={update.isPending} aria-busy={update.isPending || undefined}>
        {update.isPending ? 'Saving…' : 'Save'} <span className="sr-only">{label} threshold</span>
      </Button>
    </form>
  );
}
