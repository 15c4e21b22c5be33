import { z } from 'zod';
import { adminRequest } from '../../../lib/admin-request';

/** DELETE /api/admin/alerts: clears the whole history (204). */
export async function clearAlertHistory(): Promise<void> {
  await adminRequest('/api/admin/alerts', z.unknown(), { method: 'DELETE' });
}
