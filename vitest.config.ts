import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * One vitest run for the whole workspace: each package is a project with its own environment.
 * Tests live next to the code in `__tests__/`.
 */
const browserLike = (name: string, dir: string) => ({
  test: {
    name,
    root: dir,
    // happy-dom: about 40% less CPU than jsdom for these files (environment setup and DOM work). The few files that need
    // jsdom's fidelity (DOMPurify, Request.keepalive, <picture> sources, hydration with early input) say so in a
    // `@vitest-environment jsdom` comment at their top, with the reason.
    environment: 'happy-dom',
    include: ['src/**/__tests__/**/*.test.{ts,tsx}'],
    // A whole admin screen rendered in jsdom (its lazy parts, MSW answers) takes 2-4 s beside the API files on 2 cores.
    testTimeout: 15_000,
    setupFiles: [new URL('./vitest.setup-dom.ts', import.meta.url).pathname],
    // The files of a worker share one DOM and the modules from node_modules (React, MSW, the testing library), which
    // were most of each file's start-up. The setup file gives each file the site's own modules afresh and a cleared
    // DOM, storage, cookies and URL, so no file sees another's state, in any order (figures in docs/decisions.md).
    isolate: false,
  },
  define: { __MFE_VERSION__: JSON.stringify('test') },
  esbuild: { jsx: 'automatic' as const },
});

const API_TEST = {
  root: 'api',
  environment: 'node' as const,
  include: ['src/**/__tests__/**/*.test.ts'],
  testTimeout: 20_000,
  hookTimeout: 30_000,
};

/** API suites that assert a wall-clock bound under load (see the `api-timed` project). */
const TIMED_API_FILES = [
  'src/analysis/__tests__/page-analyzer.test.ts',
  'src/__tests__/shared-releases.test.ts',
  'src/site/render/__tests__/ssr.test.ts',
  'src/events/__tests__/bot-user-agent.test.ts',
];

/** Projects whose files start first: they hold a long file (deploy-remote.test.ts) that would otherwise end the step alone. */
const FIRST_PROJECTS = ['scripts'];
/**
 * vitest's order (by group, then project name, then each file's last duration or size), except that FIRST_PROJECTS
 * start first: by name, `scripts` sorts after the four remotes, and a fresh clone has no durations to order by.
 */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => (FIRST_PROJECTS.includes(file.project.name) ? 0 : 1);
    // Array.prototype.sort is stable: within a group and a rank, vitest's own order stays.
    return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongFirstSequencer },
    // vitest's own default is one worker less than the cores: on our 2-core machines that is one file at a time, and the
    // API files mostly wait on sockets, child processes and databases. One more than the cores: on 2 cores, 3 workers
    // took the step from 226 to 209 s (quiet machine, 178 files), the cores busy 1.8 of 2 instead of idling while a file
    // waits. VITEST_MAX_WORKERS sets it. Suites that bound a wall-clock time run alone after the rest (api-timed).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || availableParallelism() + 1,
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
          ...API_TEST,
          name: 'api',
          exclude: [...TIMED_API_FILES, '**/node_modules/**'],
          // Files run in parallel like every other project's: each suite opens port 0, a temporary data folder, a
          // PostgreSQL schema and Redis keys of its own, and NOTIFY channels are per schema (db/pg-listen.ts).
          // The files of one worker share one module graph (not isolated): importing the API, sharp, libsql and the
          // drivers again for each of ~90 files cost ~115 s of the step's CPU (import 115 s -> 18 s, the project's wall
          // 294 s -> 210 s). It holds because each test builds its own app (createApp) and module-level state is keyed by
          // what a test owns (a site root, a schema); nothing here uses vi.mock. A new module-level cache must be too.
          isolate: false,
        },
      },
      {
        test: {
          ...API_TEST,
          name: 'api-timed',
          include: TIMED_API_FILES,
          // Suites that bound a wall-clock time while the server works hard (health answers within 200 ms during a
          // hostile analysis; a deploy served within 2 s): they run after everything else, one file at a time, on a
          // machine no other test file is loading.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
