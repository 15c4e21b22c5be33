import { useQuery } from '@tanstack/react-query';
import { deployTokenListSchema, type DeployToken } from '@site/contracts/deploys';
import { adminRequest } from '../../../lib/admin-request';
import { deployKeys } from '../lib/deploy-keys';

/** GET /api/admin/deploy-tokens: the live tokens, newest first (never the tokens themselves). */
export function listDeployTokens(signal?: AbortSignal): Promise<{ tokens: DeployToken[] }> {
  return adminRequest('/api/admin/deploy-tokens', deployTokenListSchema, { signal });
}

export function useDeployTokensQuery() {
  return useQuery({ queryKey: deployKeys.tokens(), queryFn: ({ signal }) => listDeployTokens(signal) });
}
