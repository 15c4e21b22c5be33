import { adminSessionSchema, type AdminSession } from '@site/contracts/admin';
import { requestJson } from '@site/ui';

/** GET /api/admin/session: logged in or not, and whether a password is configured at all. */
export function getSession(signal?: AbortSignal): Promise<AdminSession> {
  return requestJson('/api/admin/session', adminSessionSchema, { signal, credentials: 'same-origin' });
}
