import { useState } from 'react';
import type { WebhookEndpoint } from '@site/contracts/webhooks-out';
import { ApiError, Button, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { StatusPill } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatRelative } from '../../../lib/format';
import { deleteWebhook } from '../api/delete-webhook';
import { regenerateWebhookSecret } from '../api/regenerate-webhook-secret';
import { sendTestWebhook } from '../api/send-test-webhook';
import { updateWebhook } from '../api/update-webhook';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { SecretNotice } from './secret-notice';

const failed = (err: unknown, fallback: string) => {
  if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, fallback));
};

/** One endpoint: its URL and events, enable/disable, test, edit, new secret, delete, and its delivery log. */
export function EndpointCard({ endpoint, onChanged, onDeleted }: { endpoint: WebhookEndpoint; onChanged: (e: WebhookEndpoint) => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'regenerate' | null>(null);
  const [logVersion, setLogVersion] = useState(0);
  const [showLog, setShowLog] = useState(false);

  async function run<T>(key: string, action: () => Promise<T>, fallback: string): Promise<T | undefined> {
    setBusy(key);
    try {
      return await action();
    } catch (err) {
      failed(err, fallback);
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    const d = await run('test', () => sendTestWebhook(endpoint.id), 'Could not send the test event.');
    if (!d) return;
    if (d.status === 'delivered') notify.success('Test event delivered', { description: `HTTP ${d.responseStatus} in ${d.latencyMs} ms` });
    else notify.error('The test event did not go through', { description: `${d.responseStatus !== null ? `HTTP ${d.responseStatus}: ` : ''}${d.responseExcerpt ?? ''}`.slice(0, 200) });
    setShowLog(true);
    setLogVersion((v) => v + 1);
  }

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
            <Button size="sm" onClick={test} disabled={busy !== null || !endpoint.enabled} aria-busy={busy === 'test' || undefined}>
              {busy === 'test' ? 'Sending…' : 'Send test event'}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={busy !== null}
              onClick={async () => {
                const updated = await run('toggle', () => updateWebhook(endpoint.id, { enabled: !endpoint.enabled }), 'Could not change the endpoint.');
                if (updated) {
                  onChanged(updated);
                  notify.success(updated.enabled ? 'Endpoint enabled' : 'Endpoint disabled');
                }
              }}
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button size="sm" variant="secondary" disabled={busy !== null} onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
              Edit
            </Button>
            <Button size="sm" variant="secondary" disabled={busy !== null} onClick={() => setConfirm('regenerate')}>
              New secret
            </Button>
            <Button size="sm" variant="danger" disabled={busy !== null} onClick={() => setConfirm('delete')}>
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
              busy={busy === 'save'}
              onCancel={() => setEditing(false)}
              onSubmit={async (value) => {
                const updated = await run('save', () => updateWebhook(endpoint.id, value), 'Could not save the endpoint.');
                if (updated) {
                  onChanged(updated);
                  setEditing(false);
                  notify.success('Endpoint saved');
                }
              }}
            />
          </div>
        )}

        <details open={showLog} onToggle={(e) => setShowLog(e.currentTarget.open)}>
          <summary className="cursor-pointer text-sm font-semibold text-primary-soft-fg">Delivery log</summary>
          {showLog && (
            <div className="mt-2">
              <DeliveryLog endpointId={endpoint.id} version={logVersion} />
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
        busy={busy === 'delete'}
        onConfirm={async () => {
          const ok = await run('delete', async () => (await deleteWebhook(endpoint.id), true), 'Could not delete the endpoint.');
          setConfirm(null);
          if (ok) {
            notify.success('Endpoint deleted');
            onDeleted();
          }
        }}
      />
      <ConfirmDialog
        open={confirm === 'regenerate'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="New signing secret"
        description="Make a new signing secret? The current one stops working at once: update your receiver with the new one."
        confirmLabel="Make a new secret"
        busyLabel="Making…"
        busy={busy === 'regenerate'}
        onConfirm={async () => {
          const updated = await run('regenerate', () => regenerateWebhookSecret(endpoint.id), 'Could not make a new secret.');
          setConfirm(null);
          if (updated) {
            const { secret: fresh, ...rest } = updated;
            onChanged(rest);
            setSecret(fresh);
          }
        }}
      />
    </li>
  );
}
