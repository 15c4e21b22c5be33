import { useState } from 'react';
import type { DeployTokenCreated } from '@site/contracts/deploys';
import { ApiError, notify } from '@site/ui';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { ShownOnceNotice } from '../../../components/shown-once-notice';
import { errorMessage } from '../../../lib/admin-request';
import { useCreateDeployTokenMutation } from '../api/create-deploy-token';
import { useDeployTokensQuery } from '../api/list-deploy-tokens';
import { DeployTokenForm } from './deploy-token-form';
import { DeployTokenList } from './deploy-token-list';

/**
 * Deploy tokens: the form that issues one, the token shown once (the focus goes to it), and the live tokens. The
 * token is kept in this component's state only: leaving the screen or "I have copied it" forgets it for good.
 */
export function DeployTokensPanel() {
  const tokens = useDeployTokensQuery();
  const create = useCreateDeployTokenMutation();
  const [created, setCreated] = useState<DeployTokenCreated | null>(null);
  // A new form after each token: its fields empty again.
  const [formKey, setFormKey] = useState(0);
  const data = tokens.data;

  return (
    <Panel title="Deploy tokens" description="A team's CI deploys its apps with a token made here. The token is shown once, when it is made; the site keeps only a hash of it.">
      <div className="space-y-6">
        {created && (
          <ShownOnceNotice
            focusOnShow
            title={`Copy the token for "${created.name}" now: it will not be shown again.`}
            hint={
              <>
                Store it as a secret of the team&apos;s CI and send it as <code>Authorization: Bearer &lt;token&gt;</code>. It may deploy {created.apps.join(', ')}. Lost it? Revoke it and
                create another.
              </>
            }
            label="Deploy token"
            value={created.token}
            onDone={() => setCreated(null)}
          />
        )}
        <div className="rounded-xl border border-border p-3 sm:p-4">
          <h3 className="mb-3 font-semibold text-fg">New token</h3>
          <DeployTokenForm
            key={formKey}
            busy={create.isPending}
            onSubmit={(value) =>
              create.mutate(value, {
                onSuccess: (fresh) => {
                  setCreated(fresh);
                  setFormKey((k) => k + 1);
                },
                onError: (err) => {
                  if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Could not create the token.'));
                },
              })
            }
          />
        </div>
        {tokens.error && !data ? (
          <LoadFailed title="Could not load the deploy tokens" message={errorMessage(tokens.error, 'The server did not answer.')} onRetry={() => void tokens.refetch()} />
        ) : !data ? (
          <LoadingRows label="Loading deploy tokens…" rows={2} />
        ) : (
          <DeployTokenList tokens={data.tokens} />
        )}
      </div>
    </Panel>
  );
}
