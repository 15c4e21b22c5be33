// Builds site-deploy.mjs (issue 52): src/site/releases/site-deploy-cli.ts and everything it imports (the server's release
// naming, signature and archive code, tar-stream) in one ES module that runs on Node 20.12 or later with nothing
// installed. api/build.mjs writes it to dist/site-deploy.mjs; the server run from its sources (tests) builds it in memory.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const API_DIR = path.dirname(fileURLToPath(import.meta.url));

/**
 * The packages the HTTP path needs (tar-stream and its own): any other package a bundled module imports must be one
 * whose import is unused, zod included, or the build fails.
 */
const BUNDLED_PACKAGES = /^(?:@site\/|tar-stream$|streamx$|fast-fifo$|b4a$|text-decoder$|queue-tick$|events-universal$|bare-events$)/;

/** An import from the manifest's contract: `import { REMOTE_NAMES, type MfeManifest } from '@site/contracts/manifest';`. */
const MANIFEST_IMPORT = /import \{([\w\s,]+)\} from '@site\/contracts\/manifest';/g;
/** Whether it takes no value but the remotes' names (types are erased). */
const namesOnly = (specifiers) =>
  specifiers
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .every((s) => s === 'REMOTE_NAMES' || s === 'RemoteName' || /^type \w+$/.test(s));

const selfContained = {
  name: 'self-contained',
  setup(b) {
    // The server's modules are read for the functions the tool calls, never for what their top level sets up (a
    // schema, a re-export of the database code): each is kept only for what is used of it.
    // A server module that takes only the app names (and types) from the manifest's contract gets them from
    // app-names.ts, where manifest.ts re-exports them from: the same values without the manifest's zod schemas, which
    // are built when the module loads (half a megabyte of zod). The site checks a manifest; the tool only sends it.
    b.onLoad({ filter: /[\\/]api[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(MANIFEST_IMPORT, (statement, specifiers) => (namesOnly(specifiers) ? `import {${specifiers}} from '@site/contracts/app-names';` : statement));
      return { contents, loader: 'ts' };
    });
    b.onResolve({ filter: /^(?:\.|@site\/)/ }, async (args) => {
      if (args.pluginData === 'resolved') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolved' });
      if (resolved.errors.length > 0 || resolved.path.includes('node_modules')) return resolved;
      return { ...resolved, sideEffects: false };
    });
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path) || BUNDLED_PACKAGES.test(args.path)) return undefined;
      // A server module's import the tool never reaches (esbuild, kysely…): dropped when unused, an error otherwise.
      return { path: args.path, external: true, sideEffects: false };
    });
  },
};

/**
 * Builds the tool. `write: true` writes dist/site-deploy.mjs; `write: false` returns its text. Throws when the file
 * would still import a package: it must run from an empty folder.
 */
export async function buildSiteDeploy({ write }) {
  const result = await build({
    absWorkingDir: API_DIR,
    entryPoints: [path.join(API_DIR, 'src/site/releases/site-deploy-cli.ts')],
    outfile: path.join(API_DIR, 'dist/site-deploy.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    write,
    metafile: true,
    logLevel: write ? 'info' : 'silent',
    plugins: [selfContained],
    banner: {
      js: [
        '// site-deploy.mjs: deploy, promote, roll back and follow releases of this site over HTTP. Node 20.12 or later, nothing to install.',
        '// Usage: node site-deploy.mjs --help. Built from the site\'s own code (api/src/site/releases/site-deploy-cli.ts).',
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      ].join('\n'),
    },
  });
  const imported = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path));
  if (imported.length > 0) throw new Error(`site-deploy.mjs would import ${[...new Set(imported)].join(', ')}: it must be self-contained`);
  return write ? undefined : result.outputFiles.find((file) => file.path.endsWith('.mjs')).text;
}
