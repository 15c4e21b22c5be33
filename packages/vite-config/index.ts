/**
 * The one vite configuration the shell and the four remotes build from, so federation, sharing and the
 * theme stay identical everywhere (a remote's CSS carries the theme layer too).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import federation from '@originjs/vite-plugin-federation';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { runnerImport, type Plugin, type UserConfig } from 'vite';

/** Shared as singletons through federation: one React, one router, one toaster, one design system. */
export const SHARED = ['react', 'react-dom', 'react-router-dom', 'zustand', 'sonner', 'zod', '@site/ui'];

/**
 * Shared modules with explicit versions: the plugin otherwise resolves `<pkg>/package.json`, which
 * packages with an `exports` map (sonner) do not expose.
 */
function sharedWithVersions(root: string) {
  return Object.fromEntries(
    SHARED.map((name) => {
      const file = path.join(root, 'node_modules', name, 'package.json');
      const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
      return [name, { version }];
    }),
  );
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
  },
});

/**
 * Writes dist/mfe-manifest.json from the remote's typed `src/app/manifest.ts` (name, routes, pages
 * metadata), loaded through vite so it may import the same data files that render the pages.
 */
function manifestPlugin(root: string, name: string): Plugin {
  let outDir = path.join(root, 'dist');
  return {
    name: 'site:mfe-manifest',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { module } = await runnerImport<{ routes: string[]; pages?: unknown[] }>(path.join(root, 'src/app/manifest.ts'), {
        root,
        configFile: false,
        logLevel: 'error',
      });
      const manifest = { name, version: readVersion(root), routes: module.routes, pages: module.pages ?? [] };
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path.join(outDir, 'mfe-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
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

export type RemoteOptions = { root: string; name: 'marketing' | 'analysis' | 'blog' | 'admin'; port: number };

/** A remote: exposes ./App, writes its manifest, is served under /mfe/<name>/ and previews alone on `port`. */
export function remoteConfig({ root, name, port }: RemoteOptions): UserConfig {
  const base = `/mfe/${name}/`;
  const c = common(root);
  return {
    ...c,
    base,
    plugins: [
      react(),
      tailwindcss(),
      federation({
        name,
        filename: 'remoteEntry.js',
        exposes: { './App': './src/app/App.tsx' },
        shared: sharedWithVersions(root),
      }),
      manifestPlugin(root, name),
      standaloneFallback(base),
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
      federation({
        name: 'shell',
        // Remotes are registered at run time from /remotes.json (setRemote); the plugin only acts as a
        // host when at least one remote is declared, hence this placeholder that is never loaded.
        remotes: { placeholder: '/mfe/placeholder/remoteEntry.js' },
        shared: sharedWithVersions(root),
      }),
    ],
    server: { port, proxy: { '/api': 'http://127.0.0.1:3000', '/mfe': 'http://127.0.0.1:3000', '/remotes.json': 'http://127.0.0.1:3000' } },
    preview: { port, proxy: { '/api': 'http://127.0.0.1:3000', '/mfe': 'http://127.0.0.1:3000', '/remotes.json': 'http://127.0.0.1:3000' } },
  };
}
