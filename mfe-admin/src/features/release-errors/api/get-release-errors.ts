import { useQuery } from '@tanstack/react-query';
import { releaseErrorsSchema, type ReleaseErrors } from '@site/contracts/release-errors';
import { adminRequest } from '../../../lib/admin-request';

export const releaseErrorsKey = ['monitoring', 'release-errors'] as const;

/** GET /api/admin/release-errors: each remote's releases with their page views, errors and error rate. */
export function getReleaseErrors(signal?: AbortSignal): Promise<ReleaseErrors> {
  return adminRequest('/api/admin/release-errors', releaseErrorsSchema, { signal });
}

export function useReleaseErrorsQuery() {
  return useQuery({ queryKey: releaseErrorsKey, queryFn: ({ signal }) => getReleaseErrors(signal) });
}
