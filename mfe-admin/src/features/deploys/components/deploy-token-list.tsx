import { useRef, useState } from 'react';
import type { DeployToken } from '@site/contracts/deploys';
import { ApiError, Button, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatDay, formatRelative } from '../../../lib/format';
import { useRevokeDeployTokenMutation } from '../api/revoke-deploy-token';

/**
 * The live tokens: name, apps, when made, and their last use with the address it came from. Revoke asks first; once
 * revoked the focus goes to the list's heading (the row and its button are gone).
 */
export function DeployTokenList({ tokens }: { tokens: DeployToken[] }) {
  const [confirm, setConfirm] = useState<DeployToken | null>(null);
  const revoke = useRevokeDeployTokenMutation();
  const heading = useRef<HTMLHeadingElement>(null);
  const revoked = useRef(false);

  return (
    <div>
      <h3 ref={heading} tabIndex={-1} className="mb-2 text-sm font-semibold text-fg focus-visible:outline-2 focus-visible:outline-offset-2">
        Live tokens ({tokens.length})
      </h3>
      {tokens.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No deploy tokens yet. Create one for each team&apos;s CI.</p>
      ) : (
        <ul aria-label="Deploy tokens" className="divide-y divide-border rounded-xl border border-border">
          {tokens.map((token) => (
            <li key={token.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between sm:p-4">
              <div className="min-w-0 space-y-1">
                <p className="break-words font-semibold text-fg">{token.name}</p>
                <p className="flex flex-wrap items-center gap-1.5">
                  <span className="sr-only">Apps:</span>
                  {token.apps.map((app) => (
                    <code key={app} className="rounded bg-surface-muted px-1.5 py-0.5 text-xs text-fg">
                      {app}
                    </code>
                  ))}
                </p>
                <p className="text-xs text-muted-fg">
                  Created <time dateTime={token.createdAt} title={formatDateTime(token.createdAt)}>{formatDay(token.createdAt)}</time>
                  {' · '}
                  {token.lastUsedAt ? (
                    <>
                      Last used <time dateTime={token.lastUsedAt} title={formatDateTime(token.lastUsedAt)}>{formatRelative(token.lastUsedAt)}</time>
                      {token.lastUsedFrom && (
                        <>
                          {' '}
                          from <span className="break-all font-mono">{token.lastUsedFrom}</span>
                        </>
                      )}
                    </>
                  ) : (
                    'Never used'
                  )}
                </p>
              </div>
              <Button size="sm" variant="danger" className="self-start" disabled={revoke.isPending} onClick={() => setConfirm(token)} aria-label={`Revoke ${token.name}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Revoke deploy token"
        description={`Revoke "${confirm?.name ?? ''}"? Deploys made with it are refused from now on; this cannot be undone.`}
        confirmLabel="Revoke"
        busyLabel="Revoking…"
        busy={revoke.isPending}
        onCloseAutoFocus={(event) => {
          // The revoked row and its button are gone: the focus goes to the list's heading instead of the page's start.
          if (!revoked.current) return;
          revoked.current = false;
          event.preventDefault();
          heading.current?.focus();
        }}
        onConfirm={() =>
          confirm &&
          revoke.mutate(confirm.id, {
            onSuccess: () => {
              revoked.current = true;
              notify.success('Deploy token revoked');
            },
            onError: (err) => {
              if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Could not revoke the token.'));
            },
            onSettled: () => setConfirm(null),
          })
        }
      />
    </div>
  );
}
