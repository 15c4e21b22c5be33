/**
 * The one vite configuration the shell and the four remotes build from, so federation, sharing and the
 * theme stay identical everywhere (a remote's CSS carries the theme layer too).
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import federation from '@originjs/vite-plugin-federation';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, runnerImport, type Plugin, type UserConfig } from 'vite';
// A relative import: vite's config loader bundles it (a workspace package import would be loaded as .ts by Node).
import { SERVER_CONTRACT_VERSION, SHARED_SINGLETONS, type BuiltWith } from '../contracts/src/release-compat';
import { afterPaintEntryPlugin } from './after-paint';
import { onwarn } from './build-logs';
import { precompressPlugin } from './precompress';
import { reactDomClientAtTopLevelPlugin } from './react-dom-client';
import { linkRemoteStylesOncePlugin } from './remote-styles';

/** Shared as singletons through federation: one React, one router, one toaster, one design system. */
export const SHARED = ['react', 'react-dom', 'react-router-dom', 'zustand', 'sonner', 'zod', '@site/ui'];

/**
 * The browser's shared react-router-dom is built from `@site/ui/src/shared-router.ts`, which re-exports only the
 * names the site uses, instead of the whole package (a shared chunk keeps every export it is built from).
 */
const ROUTER_SURFACE = 'src/shared-router.ts';

function routerSurface(root: string): { file: string; names: Set<string> } {
  const file = realpathSync(path.join(root, 'node_modules', '@site/ui', ROUTER_SURFACE));
  const list = /export\s*\{([^}]*)\}\s*from\s*'react-router-dom'/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return { file, names: new Set(list.split(',').map((n) => n.trim()).filter(Boolean)) };
}

/**
 * Shared modules with explicit versions: the plugin otherwise resolves `<pkg>/package.json`, which
 * packages with an `exports` map (sonner) do not expose.
 */
function sharedWithVersions(root: string) {
  return Object.fromEntries(
    SHARED.map((name) => {
      const file = path.join(root, 'node_modules', name, 'package.json');
      const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
      return [name, name === 'react-router-dom' ? { version, packagePath: routerSurface(root).file } : { version }];
    }),
  );
}

/**
 * Fails the build when browser code imports a name from react-router-dom that the shared surface does not export:
 * federation turns such an import into a lookup on the shared module at run time, where it would be undefined.
 * Runs after TypeScript is stripped (type-only imports are gone) and before federation rewrites the imports.
 */
function sharedRouterCheck(root: string): Plugin {
  const surface = routerSurface(root);
  return {
    name: 'site:shared-router-check',
    apply: 'build',
    transform(code, id) {
      if (id.includes('/node_modules/') || id === surface.file || !code.includes('react-router-dom')) return null;
      const ast = this.parse(code) as unknown as { body: Array<{ type: string; source?: { value: unknown }; specifiers?: Array<{ type: string; imported?: { name?: string } }> }> };
      for (const node of ast.body) {
        if (node.type !== 'ImportDeclaration' || node.source?.value !== 'react-router-dom') continue;
        for (const spec of node.specifiers ?? []) {
          const name = spec.type === 'ImportSpecifier' ? spec.imported?.name : `* or default`;
          if (!name || !surface.names.has(name)) {
            this.error(`${path.relative(root, id)} imports ${name} from react-router-dom, which the shared router (${ROUTER_SURFACE} in @site/ui) does not export: add it there`);
          }
        }
      }
      return null;
    },
  };
}

/**
 * What this app is built against (`builtWith` of its manifest): the version of each shared singleton it resolves
 * from its own node_modules, and the server contract. The deploy compares a remote's with the serving shell's.
 */
export function builtWith(root: string): BuiltWith {
  const shared: BuiltWith['shared'] = {};
  for (const name of SHARED_SINGLETONS) {
    try {
      shared[name] = (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // Not a dependency of this app: it neither needs nor provides it.
    }
  }
  return { shared, serverContract: SERVER_CONTRACT_VERSION };
}

function readVersion(root: string): string {
  return process.env.MFE_VERSION || (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

const common = (root: string): UserConfig => ({
  root,
  define: { __MFE_VERSION__: JSON.stringify(readVersion(root)) },
  build: {
    target: 'esnext',
    modulePreload: false,
    minify: 'esbuild',
    // Each remote ships one stylesheet, which the federation runtime injects when ./App loads.
    cssCodeSplit: false,
    reportCompressedSize: false,
    rollupOptions: { onwarn },
  },
});

/** What the build reads of a route table entry (`RemoteRouteDef` in @site/ui). */
interface RouteEntry {
  path: string;
  meta?: { path: string };
  data?: { source: string; param?: string };
  head?: unknown;
}

/** Packages the server module imports at run time instead of bundling them. */
const SERVER_EXTERNAL = ['react', 'react-dom', 'react-router-dom'];

/**
 * Where the server entry goes inside dist, as named in the manifest's `server.entry` (and `server.routes`, which
 * readers of the route table alone still use): it exports `routes` and `render(url, ctx)`.
 */
const SERVER_ENTRY = 'server/entry.js';
const SERVER_ENTRY_ID = 'virtual:site-server-entry';

/** Mistakes in a route table that would otherwise surface as a wrong page or a wrong status in production. */
function checkRouteTable(routes: RouteEntry[] | undefined, file: string): RouteEntry[] {
  if (!Array.isArray(routes) || routes.length === 0) throw new Error(`${file} must export a non-empty \`routes\` array`);
  const seen = new Set<string>();
  for (const r of routes) {
    if (typeof r.path !== 'string' || !r.path.startsWith('/')) throw new Error(`${file}: route path ${JSON.stringify(r.path)} must start with /`);
    if (seen.has(r.path)) throw new Error(`${file}: route ${r.path} is declared twice`);
    seen.add(r.path);
    if (r.meta && r.meta.path !== r.path) throw new Error(`${file}: route ${r.path} carries the metadata of ${r.meta.path}`);
    if (r.data && typeof r.head !== 'function' && !r.meta) throw new Error(`${file}: route ${r.path} loads server data but has no head() or meta`);
    if (r.data?.param !== undefined && !r.path.split('/').includes(`:${r.data.param}`)) throw new Error(`${file}: route ${r.path} has no :${r.data.param} param`);
  }
  return routes;
}

/**
 * The remote's route table `src/app/routes.tsx` (`routes: RemoteRouteDef[]`) feeds two build outputs:
 *   - `dist/mfe-manifest.json`: name, version, `routes` (the paths), `pages` (the static `meta`) and
 *     `server.routes`, the module below; read through vite's runner, so the table may import the same
 *     data files that render the pages;
 *   - `dist/server/entry.js`: the remote's server entry, a Node ES module (vite SSR build; react, react-dom and
 *     react-router-dom stay external so the server's one copy renders it; one file, lazy pages inlined)
 *     exporting the table as `routes` (the server runs the `head(params, data)` of dynamic pages) and
 *     `render(url, { data, signal })`, the remote's ./App for that URL (`createRemoteRender` in @site/ui).
 * The manifest also lists the client build's stylesheets (`styles`), which a server-rendered page links so the
 * remote's markup paints styled. The manifest is written last, so a server that sees it finds the module it names.
 */
function routeTablePlugin(root: string, name: string, serverRender: boolean): Plugin {
  let outDir = path.join(root, 'dist');
  let mode = 'production';
  const tableFile = path.join(root, 'src/app/routes.tsx');
  const appFile = path.join(root, 'src/app/App.tsx');
  const styles = new Set<string>();
  return {
    name: 'site:route-table',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    writeBundle(_options, bundle) {
      for (const file of Object.keys(bundle)) if (file.endsWith('.css')) styles.add(file);
    },
    async closeBundle() {
      const { module } = await runnerImport<{ routes?: RouteEntry[] }>(tableFile, {
        root,
        configFile: false,
        logLevel: 'error',
        define: { __MFE_VERSION__: JSON.stringify(readVersion(root)) },
      });
      const table = checkRouteTable(module.routes, path.relative(root, tableFile));

      await build({
        configFile: false,
        root,
        mode,
        logLevel: 'warn',
        publicDir: false,
        define: { __MFE_VERSION__: JSON.stringify(readVersion(root)) },
        plugins: [
          react(),
          virtualModule(
            SERVER_ENTRY_ID,
            [
              `export { routes } from ${JSON.stringify(tableFile)};`,
              `export const version = ${JSON.stringify(readVersion(root))};`,
              ...(serverRender
                ? [
                    `import App from ${JSON.stringify(appFile)};`,
                    `import { createRemoteRender } from '@site/ui/server-render';`,
                    `export const render = createRemoteRender(${JSON.stringify(name)}, App);`,
                  ]
                : []),
            ].join('\n'),
          ),
        ],
        // Self-contained but for React and the router, which the server resolves from node_modules next to the
        // dist (the repo's, or SITE_ROOT's), so the shell's renderer and the pages share one React.
        ssr: { noExternal: true, external: SERVER_EXTERNAL },
        build: {
          ssr: true,
          outDir: path.join(outDir, path.dirname(SERVER_ENTRY)),
          emptyOutDir: true,
          target: 'node20',
          minify: false,
          reportCompressedSize: false,
          // One file: the server imports it by a versioned URL (`entry.js?version=…`), and a lazy chunk importing
          // `../entry.js` back would load a second, unversioned copy (two React contexts, two query clients).
          rollupOptions: { input: SERVER_ENTRY_ID, onwarn, output: { format: 'es', entryFileNames: path.basename(SERVER_ENTRY), inlineDynamicImports: true } },
        },
      });

      const manifest = {
        name,
        version: readVersion(root),
        routes: table.map((r) => r.path),
        pages: table.flatMap((r) => (r.meta ? [r.meta] : [])),
        server: serverRender ? { routes: SERVER_ENTRY, entry: SERVER_ENTRY } : { routes: SERVER_ENTRY },
        styles: [...styles].sort(),
        builtWith: builtWith(root),
      };
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path.join(outDir, 'mfe-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    },
  };
}

/** A module that exists only in the build (`id` imports it). */
function virtualModule(id: string, code: string): Plugin {
  const resolved = `\0${id}`;
  return {
    name: `site:virtual:${id}`,
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (loaded) => (loaded === resolved ? code : undefined),
  };
}

/**
 * The shell's server entry, `dist/server/entry.js` (vite SSR build of `src/app/server-entry.tsx`; react, react-dom
 * and react-router-dom external, as in the remotes' server entries, so one React renders them all): the API
 * imports it to render the chrome around a remote's page in the tree the browser hydrates.
 */
function shellServerPlugin(root: string): Plugin {
  let outDir = path.join(root, 'dist');
  let mode = 'production';
  return {
    name: 'site:shell-server-entry',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        mode,
        logLevel: 'warn',
        publicDir: false,
        define: { __MFE_VERSION__: JSON.stringify(readVersion(root)) },
        plugins: [react()],
        ssr: { noExternal: true, external: SERVER_EXTERNAL },
        build: {
          ssr: path.join(root, 'src/app/server-entry.tsx'),
          outDir: path.join(outDir, 'server'),
          emptyOutDir: true,
          target: 'node20',
          minify: false,
          reportCompressedSize: false,
          rollupOptions: { onwarn, output: { format: 'es', entryFileNames: 'entry.js', inlineDynamicImports: true } },
        },
      });
      // What the shell provides to the remotes: a remote's deploy is refused when it needs more (release-compat).
      const manifest = { name: 'shell', version: readVersion(root), builtWith: builtWith(root) };
      writeFileSync(path.join(outDir, 'shell-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    },
  };
}

/**
 * `vite preview` of a remote serves its standalone host for any page path, so deep links such as
 * /blog/some-post work without the shell.
 */
function standaloneFallback(base: string): Plugin {
  return {
    name: 'site:standalone-fallback',
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        if (req.method === 'GET' && !url.startsWith(base) && !url.startsWith('/api/') && (req.headers.accept ?? '').includes('text/html')) {
          req.url = base;
        }
        next();
      });
    },
  };
}

export type RemoteOptions = {
  root: string;
  name: 'marketing' | 'analysis' | 'blog' | 'admin';
  port: number;
  /** False for a remote whose pages render in the browser alone (admin): its server module exports `routes` only. */
  serverRender?: boolean;
};

/** A remote: exposes ./App, writes its manifest and server module, is served under /mfe/<name>/ and previews alone on `port`. */
export function remoteConfig({ root, name, port, serverRender = true }: RemoteOptions): UserConfig {
  const base = `/mfe/${name}/`;
  const c = common(root);
  // `npm run dev -- <remote> --against <site>` (scripts/dev-remote.mjs): the browser's build alone, rebuilt on each
  // change; the manifest, the server modules and the compressed copies are a deploy's, and would slow every rebuild.
  const browserOnly = process.env.SITE_REMOTE_DEV === '1';
  return {
    ...c,
    base,
    plugins: [
      react(),
      tailwindcss(),
      sharedRouterCheck(root),
      federation({
        name,
        filename: 'remoteEntry.js',
        exposes: { './App': './src/app/App.tsx' },
        shared: sharedWithVersions(root),
      }),
      linkRemoteStylesOncePlugin(),
      ...(browserOnly ? [] : [routeTablePlugin(root, name, serverRender)]),
      standaloneFallback(base),
      ...(browserOnly ? [] : [precompressPlugin()]),
    ],
    preview: { port, strictPort: true, proxy: { '/api': 'http://127.0.0.1:3000' } },
  };
}

/** The shell: the host that loads every remote by URL at run time. */
export function shellConfig({ root, port }: { root: string; port: number }): UserConfig {
  const c = common(root);
  return {
    ...c,
    base: '/',
    plugins: [
      react(),
      tailwindcss(),
      sharedRouterCheck(root),
      federation({
        name: 'shell',
        // Remotes are registered at run time from /remotes.json (setRemote); the plugin only acts as a
        // host when at least one remote is declared, hence this placeholder that is never loaded.
        remotes: { placeholder: '/mfe/placeholder/remoteEntry.js' },
        shared: sharedWithVersions(root),
      }),
      reactDomClientAtTopLevelPlugin(root),
      shellServerPlugin(root),
      afterPaintEntryPlugin(),
      precompressPlugin(),
    ],
    server: { port, proxy: { '/api': 'http://127.0.0.1:3000', '/mfe': 'http://127.0.0.1:3000', '/remotes.json': 'http://127.0.0.1:3000' } },
    preview: { port, proxy: { '/api': 'http://127.0.0.1:3000', '/mfe': 'http://127.0.0.1:3000', '/remotes.json': 'http://127.0.0.1:3000' } },
  };
}
