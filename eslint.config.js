// One lint configuration for the workspace. Besides typescript-eslint and the rules of hooks it holds the
// architecture's boundaries (CONVENTIONS.md), so they hold by themselves instead of by memory:
//   - no remote imports another remote or the shell; the shell imports no remote;
//   - inside an app, features do not import each other; components/, lib/ and config/ import no feature;
//     nothing below app/ imports app/ (direction: shared -> features -> app);
//   - the front ends (shell, remotes) import no API code; the API imports no front-end code (shell, remotes,
//     packages/ui): it loads them at run time through their built server entries, never by a source import;
//   - the API is foldered by area (posts/, contact/, media/, …) with routes, service and repository side by side;
//     by file name: a route (`*-routes.ts`, http/) never imports storage (db/, `*-repository.ts`, `*-schema.ts`);
//     domain code (the other files of an area, services.ts) imports no route, http/, middleware/ or site/; storage
//     imports no domain code; lib/ imports no app code;
//   - a migration (api/src/db/migrations) is frozen: it imports only kysely, node: built-ins and files of its own
//     folder, by a static or a dynamic import;
//   - packages/contracts/src imports nothing but zod, not even by import(), require() or process.getBuiltinModule();
//     packages/ui imports no app.
// It also holds eslint-plugin-regexp, so no regular expression can backtrack super-linearly.
// And the size limits (issue 53): no source file over 500 lines, no function over 250 (tests, benches, e2e, generated
// types and data tables aside).
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

/** The API's folders that are not an area: shared layers and test support. Every other folder of api/src is an area. */
const API_SHARED_FOLDERS = new Set(['__tests__', 'db', 'http', 'lib', 'middleware', 'site', 'test-support']);
/** The API's areas (posts, contact, media, …), read when the config loads: a new area is fenced in as soon as it exists. */
const API_AREAS = readdirSync(path.join(ROOT, 'api/src'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !API_SHARED_FOLDERS.has(d.name))
  .map((d) => d.name);
/** One glob per area for files named `pattern`, at any depth inside the area. */
const API_LAYER_ANY_AREA = (pattern) => API_AREAS.map((area) => `./api/src/${area}/**/${pattern}`);
const API_HTTP = ['./api/src/http/**'];
/**
 * The release code (site/releases: what is served, deploys, canaries) is layered as an area is, by file name: its
 * repositories (`*-repository.ts`) are storage and its only SQL; every other file of it is domain code.
 */
const RELEASES_STORAGE = ['./api/src/site/releases/*-repository.ts'];
const RELEASES_DOMAIN = ['./api/src/site/releases/!(*-repository).ts'];
const API_STORAGE = ['./api/src/db/**', ...API_LAYER_ANY_AREA('*-repository.ts'), ...API_LAYER_ANY_AREA('*-schema.ts'), ...RELEASES_STORAGE];
// services.ts (the composition) written as a glob: a zone's `from` is either all globs or all plain paths.
const API_COMPOSITION = './api/src/services?(.ts)';
const API_DOMAIN = [...API_LAYER_ANY_AREA('!(*-routes|*-repository|*-schema).ts'), API_COMPOSITION];

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
  // The API is foldered by area (posts/, contact/, …: routes, service and repository side by side), so its
  // layers are told apart by file name: `*-routes.ts` (and http/) is HTTP, `*-repository.ts`, `*-schema.ts` and
  // db/ are storage, every other file of an area (and services.ts, the composition) is domain code.
  {
    target: [...API_HTTP, ...API_LAYER_ANY_AREA('*-routes.ts')],
    from: API_STORAGE,
    apiLayer: true,
    message: 'Routes get services, never the database: put the query in a repository and call it from a service.',
  },
  {
    target: API_DOMAIN,
    from: [...API_HTTP, ...API_LAYER_ANY_AREA('*-routes.ts'), './api/src/middleware/**', './api/src/site/**'],
    apiLayer: true,
    message: 'Services are framework-free: they import no route, middleware or site code; describe what they need as an interface and let app.ts pass it in.',
  },
  {
    target: RELEASES_DOMAIN,
    from: [
      ...API_HTTP,
      ...API_LAYER_ANY_AREA('*-routes.ts'),
      './api/src/middleware/**',
      // The rest of site/ (render, static files, the site handler) sits above the release code.
      './api/src/site/!(releases)/**',
      './api/src/site/*.ts',
    ],
    apiLayer: true,
    message:
      'The release code is domain code: it imports no route, http/, middleware/ or page rendering (site/render, site/static); describe what it needs as an interface and let app.ts pass it in.',
  },
  {
    target: API_STORAGE,
    from: [...API_DOMAIN, ...RELEASES_DOMAIN],
    apiLayer: true,
    message: 'The database layer sits below the services: a repository owns its interface and its stored types, the service imports them.',
  },
  {
    target: './api/src/lib/**',
    from: [...API_AREAS.map((area) => `./api/src/${area}/**`), ...API_HTTP, './api/src/db/**', './api/src/middleware/**', './api/src/site/**', API_COMPOSITION],
    apiLayer: true,
    message: 'lib/ holds small framework-free helpers: it imports no app code (routes, services, repositories, db, middleware, site).',
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
      // Releases a server writes when SITE_ROOT is the repo (`npm start`, `npm run deploy`): built code, as .gitignore says.
      '{shell,mfe-*}/releases/**',
      '{shell,mfe-*}/staged/**',
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
      // A contract's regex becomes a JSON Schema pattern in the API description, which has no flags: `[A-Za-z]` is
      // written out (http/openapi-document.ts refuses to describe a pattern with the `i` flag).
      'regexp/use-ignore-case': 'off',
    },
  },
  {
    // A file a newcomer can read at once (issue 53): at most 500 lines, and no function over 250 (a bigger factory is
    // split by use case, a bigger module by area). Tests, benches and e2e are scenarios, not structure, so they are left
    // out, with the generated client types and the data tables named below.
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    ignores: [
      '**/__tests__/**',
      '**/*.{test,spec}.{ts,tsx,mts,js,mjs}',
      'api/bench/**',
      'e2e/**',
      // Generated by openapi-typescript from the OpenAPI document (a test fails when it is stale), never edited.
      'api/src/http/__tests__/admin-client/openapi.d.ts',
      // Data tables: page content and seed posts, written out as data; they grow with the content, not the logic.
      'mfe-marketing/src/features/local-pages/data/cities.ts',
      'mfe-marketing/src/features/case-studies/data/case-studies.ts',
      'mfe-marketing/src/features/home/data/content.ts',
      'api/src/db/migrations/0002-blog-seed.ts',
    ],
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 250, skipBlankLines: false, skipComments: false, IIFEs: true }],
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
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: boundaryZones.map(({ apiLayer: _, ...zone }) => zone) }],
    },
  },
  {
    // An API test drives its area through every layer (routes, service, repository), so the API's layer zones do
    // not apply to it; the zones between the API and the front ends still do.
    files: ['api/src/**/__tests__/**'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: boundaryZones.filter((zone) => !zone.apiLayer) }],
    },
  },
  {
    // The release code's repositories are its only SQL (issue 51): its other files hold no query builder and no table
    // types, only the database handle a repository names (ReleasesDb), which they pass on.
    files: ['api/src/site/releases/*.ts'],
    ignores: ['api/src/site/releases/*-repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: 'SQL in the release code lives in its repositories (site/releases/*-repository.ts): call one, typed by its ReleasesDb.' }],
          patterns: [{ regex: '/db/schema$', message: 'Table types belong to the release code\'s repositories (site/releases/*-repository.ts): call one instead.' }],
        },
      ],
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
