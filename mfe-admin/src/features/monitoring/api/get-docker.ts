import { useQuery } from '@tanstack/react-query';
import { dockerSummarySchema, type DockerSummary } from '@site/contracts/admin';
import { adminRequest } from '../../../lib/admin-request';

/** GET /api/admin/docker: containers when the Docker socket is mounted, else why not. */
export function getDocker(signal?: AbortSignal): Promise<DockerSummary> {
  return adminRequest('/api/admin/docker', dockerSummarySchema, { signal });
}

export function useDockerQuery() {
  return useQuery({ queryKey: ['monitoring', 'docker'], queryFn: ({ signal }) => getDocker(signal) });
}
