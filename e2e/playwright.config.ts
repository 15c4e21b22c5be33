import { rmSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { BASE_URL, E2E_ADMIN_PASSWORD, E2E_DATA_DIR, E2E_PORT, E2E_WEBHOOK_SECRET, REPO_ROOT } from './support/env';

// Every run starts from an empty database. Workers load this file too (TEST_WORKER_INDEX set): only the
// runner may clear it, or a worker would delete the database under the running server.
if (process.env.TEST_WORKER_INDEX === undefined) rmSync(E2E_DATA_DIR, { recursive: true, force: true });

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  // Three at a time on two cores: the tests also wait on pages, the server and the database, which two workers left the
  // cores idle for (figures in docs/decisions.md). E2E_WORKERS sets it outside CI.
  workers: process.env.CI ? 3 : Number(process.env.E2E_WORKERS || 3),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: BASE_URL,
    // A trace records every action's DOM and a screencast: about a tenth of the suite's CPU. CI keeps none of its files,
    // so it records none; locally a failed test keeps its trace (or run with --trace on).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } } }],
  webServer: {
    // The production build, served the way `npm run serve` does.
    command: 'node api/dist/server.js',
    cwd: REPO_ROOT,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: BASE_URL,
      WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
      // The Integrations test's receiver listens on 127.0.0.1: a private target, sent to only when allowed.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      // Lets the suite's many form posts through the production rate limits.
      RATE_LIMIT_MULTIPLIER: '100',
      // The build under test is served, as `npm start` serves it (imported as a release when it changed).
      RELEASE_IMPORT_BUILDS: 'changed',
    },
  },
});
