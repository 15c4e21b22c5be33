import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, webhookEndpointCreateSchema, type WebhookEndpointCreate, type WebhookEndpointCreateInput } from '@site/contracts/webhooks-out';
import { Button } from '@site/ui';
import { TextField } from '../../../components/form-field';

/**
 * Add or edit an endpoint: URL (http or https; the owner's private network when the server allows it), description,
 * events, enabled.
 * Checked with the same schema as the API before it is sent; the messages stay until the next try.
 */
export function EndpointForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  initial?: Partial<WebhookEndpointCreate>;
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: WebhookEndpointCreate) => void;
  onCancel?: () => void;
}) {
  const eventsErrorId = useId();
  const { register, control, handleSubmit, formState } = useForm<WebhookEndpointCreateInput, unknown, WebhookEndpointCreate>({
    defaultValues: { url: initial?.url ?? '', description: initial?.description ?? '', events: initial?.events ?? ['lead.created'], enabled: initial?.enabled ?? true },
    resolver: zodResolver(webhookEndpointCreateSchema),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { errors } = formState;

  return (
    <form noValidate onSubmit={(e) => handleSubmit(onSubmit)(e)} className="space-y-4">
      <TextField
        label="Endpoint URL"
        required
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://n8n.example.com/webhook/leads"
        {...register('url')}
        error={errors.url?.message}
        hint="http:// or https://. Addresses on your own network (n8n beside the site) need WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server; cloud metadata addresses are never allowed."
      />
      <TextField label="Description" maxLength={200} {...register('description')} error={errors.description?.message} placeholder="n8n: new leads to the CRM" />
      <Controller
        control={control}
        name="events"
        render={({ field, fieldState }) => {
          const events = field.value ?? [];
          return (
            <fieldset aria-describedby={fieldState.error ? eventsErrorId : undefined}>
              <legend className="text-sm font-semibold text-fg">Events</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <label key={type} className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-border p-2.5 text-sm hover:bg-surface-muted">
                    <input
                      type="checkbox"
                      className="mt-0.5 h-4 w-4 shrink-0 accent-blue-600"
                      checked={events.includes(type)}
                      onChange={(e) => field.onChange(e.target.checked ? [...new Set([...events, type])] : events.filter((t) => t !== type))}
                    />
                    <span className="min-w-0">
                      <code className="font-semibold text-fg">{type}</code>
                      <span className="block text-xs text-muted-fg">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
                    </span>
                  </label>
                ))}
              </div>
              {fieldState.error && (
                <p id={eventsErrorId} className="mt-1.5 text-sm font-medium text-danger">
                  {fieldState.error.message}
                </p>
              )}
            </fieldset>
          );
        }}
      />
      <label className="flex cursor-pointer items-center gap-2.5 text-sm font-semibold text-fg">
        <input type="checkbox" className="h-4 w-4 accent-blue-600" {...register('enabled')} />
        Enabled (send events to this endpoint)
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Saving…' : submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
