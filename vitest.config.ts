import { defineConfig } from 'vitest/config';

/**
 * One vitest run for the whole workspace: each package is a project with its own environment.
 * Tests live next to the code in `__tests__/`.
 */
const browserLike = (name: string, dir: string) => ({
  test: {
    name,
    root: dir,
    environment: 'jsdom',
    include: ['src/**/__tests__/**/*.test.{ts,tsx}'],
    setupFiles: [new URL('./vitest.setup-dom.ts', import.meta.url).pathname],
  },
  define: { __MFE_VERSION__: JSON.stringify('test') },
  esbuild: { jsx: 'automatic' as const },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node', include: ['src/**/__tests__/**/*.test.ts'] } },
      // The repo's own tooling: eslint.config.js's boundaries, proven through the ESLint API.
      { test: { name: 'scripts', root: 'scripts', environment: 'node', include: ['__tests__/**/*.test.ts'], testTimeout: 30_000 } },
      // The shared build configuration's own plugins (the shell's after-paint loader runs in jsdom).
      { test: { name: 'vite-config', root: 'packages/vite-config', environment: 'node', include: ['__tests__/**/*.test.ts'] } },
      browserLike('ui', 'packages/ui'),
      browserLike('shell', 'shell'),
      browserLike('mfe-marketing', 'mfe-marketing'),
      browserLike('mfe-analysis', 'mfe-analysis'),
      browserLike('mfe-blog', 'mfe-blog'),
      browserLike('mfe-admin', 'mfe-admin'),
      {
        test: {
          name: 'api',
          root: 'api',
          environment: 'node',
          include: ['src/**/__tests__/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // API suites open real ports and database files; one file at a time keeps a 2-core machine calm.
          fileParallelism: false,
        },
      },
    ],
  },
});
