// Bundles the API into one ESM file. Workspace packages (@site/*) are TypeScript sources, so they are
// bundled; every other package stays an import resolved from node_modules at run time (but two in the deploy
// commands' bundle, below).
import { build } from 'esbuild';
import { buildSiteDeploy } from './build-site-deploy.mjs';

/** Packages other than `@site/*` bundled too (`inline`); every other one stays an import. */
const externalizeDependencies = (inline = []) => ({
  name: 'externalize-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@site/')) return undefined;
      if (inline.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
      return { path: args.path, external: true };
    });
  },
});

const options = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'info',
  banner: {
    // CommonJS code that calls require() keeps working inside the ESM bundle.
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};

// The page analyzer's worker thread is its own entry: dist/analyze-worker.js, found beside dist/server.js.
await build({
  ...options,
  entryPoints: {
    server: 'src/server.ts',
    'analyze-worker': 'src/analysis/website/analyze-worker.ts',
    // Each image's variants are made in a child process of dist/media-worker.js (media/media-child.ts).
    'media-worker': 'src/media/media-worker.ts',
    // Its smoke render's worker thread (site/releases/smoke-render.ts), found beside the deployer or the server.
    'smoke-render-worker': 'src/site/releases/smoke-render-worker.ts',
  },
  plugins: [externalizeDependencies()],
});

// npm run deploy/rollback/promote import the server's own deployer, and all else they need through it (the release
// format and store, the release policy read from the environment): one release model, nothing copied. Each command
// is a new process that loads it: kysely and zod, pure JavaScript spread over hundreds of files, are bundled into it
// (one file to read and compile instead of each of theirs to resolve and load).
await build({
  ...options,
  entryPoints: { 'release-deployer': 'src/site/releases/release-deployer.ts' },
  plugins: [externalizeDependencies(['kysely', 'zod'])],
});

// The one-file deploy tool the site serves at /site-deploy.mjs (issue 52), found beside dist/server.js.
await buildSiteDeploy({ write: true });
