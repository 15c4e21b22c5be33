import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The production server the suite starts (`npm run serve` with a throwaway data dir). */
export const E2E_PORT = Number(process.env.E2E_PORT || 3100);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR || path.join(REPO_ROOT, '.data-test', `e2e-${E2E_PORT}`);
/** Known secrets for the test server only; never used outside the suite. */
export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret-for-tests-only';
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password-for-tests-only';
