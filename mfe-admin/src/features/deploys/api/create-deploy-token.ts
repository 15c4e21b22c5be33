import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deployTokenCreatedSchema, type DeployToken, type DeployTokenCreate, type DeployTokenCreated } from '@site/contracts/deploys';
import { adminRequest } from '../../../lib/admin-request';
import { deployKeys } from '../lib/deploy-keys';

/** POST /api/admin/deploy-tokens: answers the token itself, this once. */
export function createDeployToken(body: DeployTokenCreate): Promise<DeployTokenCreated> {
  return adminRequest('/api/admin/deploy-tokens', deployTokenCreatedSchema, { method: 'POST', json: body });
}

/** Issues a token; the list gets it first (without the token, which only the caller has, to show once). */
export function useCreateDeployTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createDeployToken,
    onSuccess: ({ token: _token, ...created }) =>
      client.setQueryData<{ tokens: DeployToken[] }>(deployKeys.tokens(), (d) => ({ tokens: [created, ...(d?.tokens ?? []).filter((t) => t.id !== created.id)] })),
  });
}
