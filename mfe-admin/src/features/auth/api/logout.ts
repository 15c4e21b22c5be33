import { z } from 'zod';
import { requestJson } from '@site/ui';

/** POST /api/admin/logout: ends the session on the server (204). */
export async function logout(): Promise<void> {
  await requestJson('/api/admin/logout', z.unknown(), { method: 'POST', credentials: 'same-origin' });
}
