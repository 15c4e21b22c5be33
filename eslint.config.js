// One lint configuration for the workspace. Besides typescript-eslint and the rules of hooks it holds the
// architecture's boundaries (CONVENTIONS.md), so they hold by themselves instead of by memory:
//   - no remote imports another remote or the shell; the shell imports no remote;
//   - inside an app, features do not import each other; components/, lib/ and config/ import no feature;
//     nothing below app/ imports app/ (direction: shared -> features -> app);
//   - in the API, routes/ never imports db/ (routes get services);
//   - packages/contracts/src imports nothing but zod; packages/ui imports no app.
// It also holds eslint-plugin-regexp, so no regular expression can backtrack super-linearly.
// When a boundary blocks you, move the shared code down instead of disabling the rule.
// scripts/__tests__/lint-boundaries.test.ts proves every boundary reports.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import regexpPlugin from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const REMOTES = ['mfe-marketing', 'mfe-analysis', 'mfe-blog', 'mfe-admin'];
const FRONT_ENDS = ['shell', ...REMOTES];
const FRONT_END_SOURCES = [...FRONT_ENDS.map((app) => `${app}/src/**/*.{ts,tsx}`), 'packages/ui/src/**/*.{ts,tsx}'];

/** Feature folders of an app, read when the config loads: a new feature is fenced in as soon as it exists. */
function featuresOf(app) {
  try {
    return readdirSync(path.join(ROOT, app, 'src/features'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

const boundaryZones = [
  ...REMOTES.map((remote) => ({
    target: `./${remote}`,
    from: [...REMOTES.filter((r) => r !== remote).map((r) => `./${r}`), './shell'],
    message: 'A remote imports no other remote and not the shell: shared code goes to @site/ui or @site/contracts.',
  })),
  {
    target: './shell',
    from: REMOTES.map((r) => `./${r}`),
    message: 'The shell knows no remote: it loads them at run time through the remotes manifest.',
  },
  ...FRONT_ENDS.flatMap((app) => {
    const src = `./${app}/src`;
    return [
      ...featuresOf(app).map((feature) => ({
        target: `${src}/features/${feature}`,
        from: `${src}/features`,
        except: [`./${feature}`],
        message: `Features do not import each other: move what "${feature}" shares down to ${app}/src/components, ${app}/src/lib or @site/ui.`,
      })),
      {
        target: [`${src}/components`, `${src}/lib`, `${src}/config`],
        from: `${src}/features`,
        message: 'Shared code (components/, lib/, config/) imports no feature: the direction is shared -> features -> app.',
      },
      {
        target: [`${src}/features`, `${src}/components`, `${src}/lib`, `${src}/config`],
        from: `${src}/app`,
        message: 'Only app/ composes the features: nothing below it imports app/.',
      },
    ];
  }),
  {
    target: './api/src/routes',
    from: './api/src/db',
    message: 'Routes get services, never the database: put the query in a repository and call it from a service.',
  },
  {
    target: './packages/ui',
    from: [...FRONT_ENDS.map((app) => `./${app}`), './api', './e2e'],
    message: 'The design system imports no app.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.data-test/**',
      '**/playwright-report/**',
      '**/test-results/**',
      '**/coverage/**',
      '**/.vite/**',
      '**/.lighthouse/**',
      'data/**',
      'api/data/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: FRONT_END_SOURCES,
    languageOptions: { globals: { ...globals.browser, __MFE_VERSION__: 'readonly' } },
  },
  {
    // Measuring scripts drive a page: their page.evaluate callbacks run in the browser.
    files: ['e2e/scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: FRONT_END_SOURCES,
    ...reactHooks.configs.flat.recommended,
  },
  // Regular expressions run over fetched pages, posts and form input: one that backtracks super-linearly lets a
  // single request hold the event loop (issue 19: 60 kB of `a.a.a…` took 8.4 s). The recommended set includes
  // no-super-linear-backtracking; no-super-linear-move (a pattern that rescans from every start position, as a
  // global or unanchored search does) is not in it, so it is switched on here, for every file.
  regexpPlugin.configs['flat/recommended'],
  {
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false, ignoreSticky: false }],
    },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a required parameter, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Kysely's own advice: a migration takes `Kysely<any>` because it describes the schema of its moment, not
    // today's typed one (see api/src/db/migrations/migration.ts); the migrator runs them against any schema.
    files: ['api/src/db/migrations/**/*.ts', 'api/src/db/migrate.ts'],
    ignores: ['**/__tests__/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx', '.json', '.d.ts'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: boundaryZones }],
    },
  },
  {
    // The shared contracts run in the browser and on the server: zod is their only dependency.
    files: ['packages/contracts/src/**/*.ts'],
    ignores: ['packages/contracts/src/**/__tests__/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(?:/|$)|\\./)',
              message: 'packages/contracts imports nothing but zod (and its own files), so every app can share it.',
            },
          ],
        },
      ],
    },
  },
);
