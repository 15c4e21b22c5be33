import { useState } from 'react';
import { ApiError, Button, notify } from '@site/ui';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { useCreateWebhookMutation } from '../api/create-webhook';
import { useWebhooksQuery } from '../api/list-webhooks';
import { EndpointCard } from './endpoint-card';
import { EndpointForm } from './endpoint-form';
import { PayloadDocs } from './payload-docs';
import { SecretNotice } from './secret-notice';

/** /admin/integrations: outgoing webhook endpoints, their delivery logs, and the payload documentation. */
export function IntegrationsPage() {
  const endpoints = useWebhooksQuery();
  const create = useCreateWebhookMutation();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const data = endpoints.data;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        heading={adminPages.integrations.heading}
        lead="Send leads, analyses and post changes to n8n or any other service: each endpoint gets signed POSTs for the events it chooses."
      />
      <Panel
        title="Webhook endpoints"
        description="The URL is shown here; the signing secret only once, when it is made."
        actions={
          !adding && (
            <Button size="sm" onClick={() => setAdding(true)}>
              Add endpoint
            </Button>
          )
        }
      >
        <div className="space-y-4">
          {secret && <SecretNotice secret={secret} onDone={() => setSecret(null)} />}
          {adding && (
            <div className="rounded-xl border border-border p-3 sm:p-4">
              <h3 className="mb-3 font-semibold text-fg">New endpoint</h3>
              <EndpointForm
                submitLabel="Add endpoint"
                busy={create.isPending}
                onCancel={() => setAdding(false)}
                onSubmit={(value) =>
                  create.mutate(value, {
                    onSuccess: ({ secret: fresh }) => {
                      setSecret(fresh);
                      setAdding(false);
                      notify.success('Endpoint added');
                    },
                    onError: (err) => {
                      if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Could not add the endpoint.'));
                    },
                  })
                }
              />
            </div>
          )}
          {endpoints.error && !data ? (
            <LoadFailed title="Could not load the endpoints" message={errorMessage(endpoints.error, 'The server did not answer.')} onRetry={() => void endpoints.refetch()} />
          ) : !data ? (
            <LoadingRows label="Loading endpoints…" rows={2} />
          ) : data.endpoints.length === 0 ? (
            !adding && <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No endpoints yet. Add one to start sending events.</p>
          ) : (
            <ul className="divide-y divide-border rounded-xl border border-border">
              {data.endpoints.map((endpoint) => (
                <EndpointCard key={endpoint.id} endpoint={endpoint} />
              ))}
            </ul>
          )}
        </div>
      </Panel>
      <PayloadDocs />
    </div>
  );
}
