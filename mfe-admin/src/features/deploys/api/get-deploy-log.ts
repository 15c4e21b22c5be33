import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { deployLogPageSchema, type AppName, type DeployLogPage } from '@site/contracts/deploys';
import { adminRequest } from '../../../lib/admin-request';
import { deployKeys } from '../lib/deploy-keys';

/** GET /api/admin/deploys: one page of the deploy log, newest first, of one app or all. */
export function getDeployLog(query: { app?: AppName | null; cursor?: string | null; limit?: number }, signal?: AbortSignal): Promise<DeployLogPage> {
  const params = new URLSearchParams();
  if (query.app) params.set('app', query.app);
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  const search = params.toString();
  return adminRequest(`/api/admin/deploys${search ? `?${search}` : ''}`, deployLogPageSchema, { signal });
}

/** The log a page at a time (the server's page size): each page's `nextCursor` reads the next, older one. */
export function useDeployLogQuery(app: AppName | null) {
  return useInfiniteQuery({
    queryKey: deployKeys.logPages(app),
    queryFn: ({ pageParam, signal }) => getDeployLog({ app, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The newest `limit` entries of every app (the dashboard's panel). */
export function useRecentDeploysQuery(limit: number) {
  return useQuery({ queryKey: deployKeys.recent(limit), queryFn: ({ signal }) => getDeployLog({ limit }, signal) });
}
