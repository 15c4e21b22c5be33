import { useQuery } from '@tanstack/react-query';
import type { CanaryRules, CanaryStatus } from '@site/contracts/deploys';
import { deployKeys } from '../lib/deploy-keys';
import { getDeployLog } from './get-deploy-log';

/** While a canary runs its figures are read again this often (the server checks it every 10 s). */
export const CANARY_REFRESH_MS = 10_000;

/**
 * The canaries running now, with both releases' page views, errors and rate, and the rules of their rollback: what the
 * first page of GET /api/admin/deploys carries (one entry of the log is asked for with it).
 */
export function useCanariesQuery() {
  return useQuery({
    queryKey: deployKeys.canaries(),
    queryFn: async ({ signal }): Promise<{ canaries: CanaryStatus[]; rules: CanaryRules | null }> => {
      const page = await getDeployLog({ limit: 1 }, signal);
      return { canaries: page.canaries ?? [], rules: page.canaryRules ?? null };
    },
    // Live while one runs: its split and rates as the check sees them.
    refetchInterval: (query) => ((query.state.data?.canaries.length ?? 0) > 0 ? CANARY_REFRESH_MS : false),
  });
}
