import { useState } from 'react';
import type { WebhookEndpoint } from '@site/contracts/webhooks-out';
import { ApiError, Button, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatRelative } from '../../../lib/format';
import { useDeleteWebhookMutation } from '../api/delete-webhook';
import { useRegenerateWebhookSecretMutation } from '../api/regenerate-webhook-secret';
import { useSendTestWebhookMutation } from '../api/send-test-webhook';
import { useUpdateWebhookMutation } from '../api/update-webhook';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { SecretNotice } from './secret-notice';

const failed = (fallback: string) => (err: unknown) => {
  if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, fallback));
};

/** One endpoint: its URL and events, enable/disable, test, edit, new secret, delete, and its delivery log. */
export function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'regenerate' | null>(null);
  const [showLog, setShowLog] = useState(false);
  const sendTest = useSendTestWebhookMutation();
  const toggle = useUpdateWebhookMutation();
  const save = useUpdateWebhookMutation();
  const remove = useDeleteWebhookMutation();
  const regenerate = useRegenerateWebhookSecretMutation();
  /** One change at a time: every button waits while one is under way. */
  const busy = [sendTest, toggle, save, remove, regenerate].some((m) => m.isPending);

  const test = () =>
    sendTest.mutate(endpoint.id, {
      onSuccess: (d) => {
        if (d.status === 'delivered') notify.success('Test event delivered', { description: `HTTP ${d.responseStatus} in ${d.latencyMs} ms` });
        else notify.error('The test event did not go through', { description: `${d.responseStatus !== null ? `HTTP ${d.responseStatus}: ` : ''}${d.responseExcerpt ?? ''}`.slice(0, 200) });
        setShowLog(true);
      },
      onError: failed('Could not send the test event.'),
    });

  const status = endpoint.enabled ? (endpoint.failingSince ? { tone: 'warning' as const, label: 'Failing' } : { tone: 'ok' as const, label: 'Enabled' }) : { tone: 'neutral' as const, label: 'Disabled' };

  return (
    <li className="space-y-3 p-3 sm:p-4">
      <article aria-label={`Endpoint ${endpoint.url}`} className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1">
            <h3 className="break-all font-mono text-sm font-semibold text-fg">{endpoint.url}</h3>
            {endpoint.description && <p className="text-sm text-muted-fg">{endpoint.description}</p>}
            <p className="flex flex-wrap items-center gap-1.5">
              <StatusPill tone={status.tone}>{status.label}</StatusPill>
              {endpoint.events.map((e) => (
                <code key={e} className="rounded bg-surface-muted px-1.5 py-0.5 text-xs text-fg">
                  {e}
                </code>
              ))}
            </p>
            {endpoint.failingSince && endpoint.enabled && <p className="text-xs text-muted-fg">Every delivery has failed since {formatRelative(endpoint.failingSince)}; it is turned off after 24 hours.</p>}
            {endpoint.disabledReason && !endpoint.enabled && <p className="text-xs font-medium text-danger">{endpoint.disabledReason}</p>}
          </div>
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <Button size="sm" onClick={test} disabled={busy || !endpoint.enabled} aria-busy={sendTest.isPending || undefined}>
              {sendTest.isPending ? 'Sending…' : 'Send test event'}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() =>
                toggle.mutate(
                  { id: endpoint.id, body: { enabled: !endpoint.enabled } },
                  { onSuccess: (updated) => notify.success(updated.enabled ? 'Endpoint enabled' : 'Endpoint disabled'), onError: failed('Could not change the endpoint.') },
                )
              }
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
              Edit
            </Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => setConfirm('regenerate')}>
              New secret
            </Button>
            <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirm('delete')}>
              Delete
            </Button>
          </div>
        </div>

        {secret && <SecretNotice secret={secret} onDone={() => setSecret(null)} />}

        {editing && (
          <div className="rounded-xl border border-border p-3 sm:p-4">
            <EndpointForm
              initial={endpoint}
              submitLabel="Save endpoint"
              busy={save.isPending}
              onCancel={() => setEditing(false)}
              onSubmit={(value) =>
                save.mutate(
                  { id: endpoint.id, body: value },
                  {
                    onSuccess: () => {
                      setEditing(false);
                      notify.success('Endpoint saved');
                    },
                    onError: failed('Could not save the endpoint.'),
                  },
                )
              }
            />
          </div>
        )}

        <details open={showLog} onToggle={(e) => setShowLog(e.currentTarget.open)}>
          <summary className="cursor-pointer text-sm font-semibold text-primary-soft-fg">Delivery log</summary>
          {showLog && (
            <div className="mt-2">
              <DeliveryLog endpointId={endpoint.id} />
            </div>
          )}
        </details>
      </article>

      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Delete endpoint"
        description={`Delete ${endpoint.url} and its delivery log? Events stop going to it at once.`}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(endpoint.id, {
            onSuccess: () => notify.success('Endpoint deleted'),
            onError: failed('Could not delete the endpoint.'),
            onSettled: () => setConfirm(null),
          })
        }
      />
      <ConfirmDialog
        open={confirm === 'regenerate'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="New signing secret"
        description="Make a new signing secret? The current one stops working at once: update your receiver with the new one."
        confirmLabel="Make a new secret"
        busyLabel="Making…"
        busy={regenerate.isPending}
        onConfirm={() =>
          regenerate.mutate(endpoint.id, {
            onSuccess: (updated) => setSecret(updated.secret),
            onError: failed('Could not make a new secret.'),
            onSettled: () => setConfirm(null),
          })
        }
      />
    </li>
  );
}
