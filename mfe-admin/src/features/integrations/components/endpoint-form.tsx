import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, webhookEndpointCreateSchema, type WebhookEndpointCreate, type WebhookEventType } from '@site/contracts/webhooks-out';
import { Button } from '@site/ui';
import { TextField } from '../../../components/form-field';

type Errors = Partial<Record<'url' | 'description' | 'events', string>>;

/**
 * Add or edit an endpoint: URL (http or https; the owner's private network is allowed), description, events, enabled.
 * Checked with the same schema as the API before it is sent.
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
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(initial?.events ?? ['lead.created']);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [errors, setErrors] = useState<Errors>({});

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = webhookEndpointCreateSchema.safeParse({ url, description, events, enabled });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]) as keyof Errors;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  }

  const toggle = (type: WebhookEventType, on: boolean) => setEvents((current) => (on ? [...new Set([...current, type])] : current.filter((t) => t !== type)));

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        label="Endpoint URL"
        required
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://n8n.example.com/webhook/leads"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={errors.url}
        hint="http:// or https://. Addresses on your own network (n8n beside the site) are allowed."
      />
      <TextField label="Description" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="n8n: new leads to the CRM" />
      <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
        <legend className="text-sm font-semibold text-fg">Events</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-border p-2.5 text-sm hover:bg-surface-muted">
              <input type="checkbox" className="mt-0.5 h-4 w-4 shrink-0 accent-blue-600" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
              <span className="min-w-0">
                <code className="font-semibold text-fg">{type}</code>
                <span className="block text-xs text-muted-fg">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.events && (
          <p id="webhook-events-error" className="mt-1.5 text-sm font-medium text-danger">
            {errors.events}
          </p>
        )}
      </fieldset>
      <label className="flex cursor-pointer items-center gap-2.5 text-sm font-semibold text-fg">
        <input type="checkbox" className="h-4 w-4 accent-blue-600" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
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
