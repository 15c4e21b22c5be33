import { useQuery } from '@tanstack/react-query';
import { vulnerabilitySummarySchema, type VulnerabilitySummary } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/vulnerabilities: the build-time dependency audit's counts, when one was written. */
export function getVulnerabilities(signal?: AbortSignal): Promise<VulnerabilitySummary> {
  return adminRequest('/api/admin/vulnerabilities', vulnerabilitySummarySchema, { signal });
}

export function useVulnerabilitiesQuery() {
  return useQuery({ queryKey: ['monitoring', 'vulnerabilities'], queryFn: ({ signal }) => getVulnerabilities(signal) });
}
