import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { requestJson } from '@site/ui';

/** POST /api/admin/logout: ends the session on the server (204). */
export async function logout(): Promise<void> {
  await requestJson('/api/admin/logout', z.unknown(), { method: 'POST', credentials: 'same-origin' });
}

/** Logs out; what the panel loaded is forgotten with the session (the next sign-in loads it afresh). */
export function useLogoutMutation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: logout, onSuccess: () => client.removeQueries() });
}
