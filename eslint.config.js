// One lint configuration for the workspace. Besides typescript-eslint and the rules of hooks it holds the
// architecture's boundaries (CONVENTIONS.md), so they hold by themselves instead of by memory:
//   - no remote imports another remote or the shell; the shell imports no remote;
//   - inside an app, features do not import each other; components/, lib/ and config/ import no feature;
//     nothing below app/ imports app/ (direction: shared -> features -> app);
//   - the front ends (shell, remotes) import no API code; the API imports no front-end code (shell, remotes,
//     packages/ui): it loads them at run time through their built server entries, never by a source import;
//   - in the API, routes/ never imports db/ (routes get services); services/ imports no routes/, middleware/ or
//     site/; db/ imports no services/; lib/ imports no app code (routes, services, db, middleware, site);
//   - a migration (api/src/db/migrations) is frozen: it imports only kysely, node: built-ins and files of its own
//     folder, by a static or a dynamic import;
//   - packages/contracts/src imports nothing but zod, not even by import(), require() or process.getBuiltinModule();
//     packages/ui imports no app.
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
    target: FRONT_ENDS.map((app) => `./${app}`),
    from: './api',
    message: 'A front end imports no API code: what both sides need (a schema, a pure rule) goes to @site/contracts.',
  },
  {
    target: './api',
    from: [...FRONT_ENDS.map((app) => `./${app}`), './packages/ui'],
    message:
      'The API imports no front-end code: it loads the shell and the remotes at run time through their built server entries; what both sides need goes to @site/contracts.',
  },
  {
    target: './api/src/routes',
    from: './api/src/db',
    message: 'Routes get services, never the database: put the query in a repository and call it from a service.',
  },
  {
    target: './api/src/services',
    from: ['./api/src/routes', './api/src/middleware', './api/src/site'],
    message: 'Services are framework-free: they import no route, middleware or site code; describe what they need as an interface and let app.ts pass it in.',
  },
  {
    target: './api/src/db',
    from: './api/src/services',
    message: 'The database layer sits below the services: a repository owns its interface and its stored types, the service imports them.',
  },
  {
    target: './api/src/lib',
    from: ['./api/src/routes', './api/src/services', './api/src/db', './api/src/middleware', './api/src/site'],
    message: 'lib/ holds small framework-free helpers: it imports no app code (routes, services, db, middleware, site).',
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
      // no-restricted-imports (and import-x/no-restricted-paths, which cannot name a built-in) see only static
      // imports: `await import('node:fs')`, require() and process.getBuiltinModule() would slip past them.
      'no-restricted-syntax': [
        'error',
        {
          // esquery regexes cannot hold a `/`: \x2F is one.
          selector: "ImportExpression:not([source.type='Literal'][source.value=/^(?:zod(?:\\x2F|$)|\\.\\x2F)/])",
          message: 'packages/contracts imports nothing but zod (and its own files), not even by a dynamic import().',
        },
        {
          selector: "CallExpression[callee.type='Identifier'][callee.name='require']",
          message: 'packages/contracts imports nothing but zod (and its own files), not even by require().',
        },
        {
          selector: "MemberExpression[property.type='Identifier'][property.name='getBuiltinModule']",
          message: 'packages/contracts imports nothing but zod (and its own files), not even by process.getBuiltinModule().',
        },
      ],
    },
  },
  {
    // A migration is frozen once it ships: it must write the same rows on every database forever, so it imports
    // no live code (a sanitizer, a contract, a seed file that may change later). It may import kysely, node
    // built-ins and files of its own folder; what it needs from elsewhere is copied beside it as data.
    files: ['api/src/db/migrations/**/*.ts'],
    ignores: ['api/src/db/migrations/**/__tests__/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!kysely$|node:|\\./)',
              message: 'A migration imports no live code (only kysely, node: built-ins and files of migrations/): copy what it needs into a frozen file beside it.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportExpression:not([source.type='Literal'][source.value=/^(?:kysely$|node:|\\.\\x2F)/])",
          message: 'A migration imports no live code, not even by a dynamic import(): copy what it needs into a frozen file beside it.',
        },
      ],
    },
  },
);
