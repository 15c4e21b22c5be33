import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { DeployToken } from '@site/contracts/deploys';
import { adminRequest } from '../../../lib/admin-request';
import { deployKeys } from '../lib/deploy-keys';

/** DELETE /api/admin/deploy-tokens/:id: the token deploys nothing from now on. */
export async function revokeDeployToken(id: string): Promise<void> {
  await adminRequest(`/api/admin/deploy-tokens/${encodeURIComponent(id)}`, z.unknown(), { method: 'DELETE' });
}

export function useRevokeDeployTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeDeployToken,
    onSuccess: (_none, id) => client.setQueryData<{ tokens: DeployToken[] }>(deployKeys.tokens(), (d) => ({ tokens: (d?.tokens ?? []).filter((t) => t.id !== id) })),
  });
}
