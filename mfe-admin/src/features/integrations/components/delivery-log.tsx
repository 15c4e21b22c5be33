import type { WebhookDelivery } from '@site/contracts/webhooks-out';
import { ApiError, Button, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { useWebhookDeliveriesQuery } from '../api/list-webhook-deliveries';
import { useRedeliverWebhookMutation } from '../api/redeliver-webhook';
import { AttemptHistory } from './attempt-history';

const STATUS: Record<WebhookDelivery['status'], { tone: Tone; label: string }> = {
  delivered: { tone: 'ok', label: 'Delivered' },
  pending: { tone: 'warning', label: 'Retrying' },
  failed: { tone: 'danger', label: 'Failed' },
};

function Outcome({ d }: { d: WebhookDelivery }) {
  const { tone, label } = d.status === 'pending' && d.attempts === 0 ? { tone: 'neutral' as Tone, label: 'Queued' } : STATUS[d.status];
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <StatusPill tone={tone}>{label}</StatusPill>
      <span className="text-xs text-muted-fg">
        {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : d.attempts > 0 ? 'No answer' : ''}
        {d.latencyMs !== null ? ` · ${d.latencyMs} ms` : ''}
        {` · attempt ${d.attempts}`}
        {d.status === 'pending' && d.nextAttemptAt ? ` · next ${formatRelative(d.nextAttemptAt)}` : ''}
      </span>
    </span>
  );
}

/** One endpoint's latest deliveries: event, time, outcome, latency, attempt, answer excerpt; redeliver one. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const log = useWebhookDeliveriesQuery(endpointId);
  const redelivery = useRedeliverWebhookMutation();
  const busy = redelivery.isPending ? redelivery.variables.deliveryId : null;
  const reload = () => void log.refetch();

  const redeliver = (d: WebhookDelivery) =>
    redelivery.mutate(
      { endpointId, deliveryId: d.id },
      {
        onSuccess: (again) => {
          if (again.status === 'delivered') notify.success(`Redelivered ${d.event}`, { description: `HTTP ${again.responseStatus} in ${again.latencyMs} ms` });
          else notify.error(`Redelivery of ${d.event} did not go through`, { description: again.responseExcerpt ?? 'It will be retried.' });
        },
        onError: (err) => {
          if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Could not redeliver. Please try again.'));
        },
      },
    );

  const data = log.data;
  if (log.error && !data) return <LoadFailed title="Could not load the deliveries" message={errorMessage(log.error, 'The server did not answer.')} onRetry={reload} />;
  if (!data) return <LoadingRows label="Loading deliveries…" rows={2} />;
  if (data.deliveries.length === 0) {
    return <p className="rounded-xl border border-dashed border-border p-4 text-center text-sm text-muted-fg">No deliveries yet. Send a test event to try the endpoint.</p>;
  }
  return (
    <div className="space-y-2">
      <div className="flex justify-end">
        <Button size="sm" variant="ghost" onClick={reload} aria-busy={log.isFetching || undefined}>
          Refresh log
        </Button>
      </div>
      <ul className="divide-y divide-border rounded-xl border border-border" aria-label="Deliveries, newest first">
        {data.deliveries.map((d) => (
          <li key={d.id} className="space-y-1.5 p-3">
            <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <code className="font-semibold text-fg">{d.event}</code>
                  <time dateTime={d.createdAt} className="text-xs text-muted-fg">
                    {formatDateTime(d.createdAt)}
                  </time>
                  {d.redeliveryOf && <span className="text-xs text-muted-fg">(redelivery)</span>}
                </p>
                <Outcome d={d} />
              </div>
              <Button
                size="sm"
                variant="secondary"
                className="self-start"
                disabled={busy !== null}
                aria-busy={busy === d.id || undefined}
                onClick={() => redeliver(d)}
                aria-label={`Redeliver ${d.event} of ${formatDateTime(d.createdAt)}`}
              >
                {busy === d.id ? 'Sending…' : 'Redeliver'}
              </Button>
            </div>
            {d.responseExcerpt && (
              <details className="text-xs">
                <summary className="cursor-pointer text-muted-fg">Response</summary>
                <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-surface-muted p-2 text-fg">{d.responseExcerpt}</pre>
              </details>
            )}
            {d.attempts > 1 && <AttemptHistory endpointId={endpointId} deliveryId={d.id} count={d.attempts} />}
            <p className="break-all text-xs text-muted-fg">
              Event id <code>{d.eventId}</code>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
