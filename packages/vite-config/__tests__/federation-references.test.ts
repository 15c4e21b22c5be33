import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import federation from '@originjs/vite-plugin-federation';
import { build, type Plugin, type Rollup } from 'vite';
import { afterAll, expect, it } from 'vitest';

// Rollup names an emitted chunk by a hash of its id, with "-" written "$" (Rollup's FileEmitter.assignReferenceId).
// A shared module given by path has an id that is its absolute path, so the checkout's folder decides the hash.
const rollupNative = createRequire(fileURLToPath(import.meta.resolve('vite')))('rollup/dist/native.js') as { xxhashBase64Url(input: Uint8Array): string };
const referenceId = (id: string) => rollupNative.xxhashBase64Url(Buffer.from(id)).slice(0, 8).replaceAll('-', '$');

// Inside this package's node_modules: the plugin resolves its own runtime from the project's folder.
const tmp = mkdtempSync(fileURLToPath(new URL('../node_modules/.federation-ref-', import.meta.url)));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a remote builds when a shared module\'s reference id holds "$$" (a checkout folder once failed the build)', async () => {
  // The first folder whose shared module's reference holds "$$": about one in 250 folders does.
  // Bounded: were Rollup to stop writing "-" as "$", no folder would qualify and the test says so instead of looping.
  const n = Array.from({ length: 100_000 }, (_, i) => i).find((i) => referenceId(path.join(tmp, `checkout${i}`, 'shared.js')).includes('$$'));
  expect(n, 'a folder whose reference holds "$$" (Rollup still writes "-" as "$")').toBeDefined();
  const root = path.join(tmp, `checkout${n}`);
  mkdirSync(root);
  const shared = path.join(root, 'shared.js');
  writeFileSync(shared, 'export const greeting = "hello";\n');
  writeFileSync(path.join(root, 'App.js'), "import { greeting } from 'shared-greeting';\nexport default () => greeting;\n");

  // The references the federation plugin wrote into its module map, as Rollup will look them up.
  const written: string[] = [];
  const recordReferences: Plugin = {
    name: 'record-references',
    enforce: 'post',
    transform(code) {
      for (const match of code.matchAll(/import\.meta\.ROLLUP_FILE_URL_([\w$]+)/g)) written.push(match[1]!);
      return null;
    },
  };
  const output = (await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [
      federation({ name: 'probe', filename: 'remoteEntry.js', exposes: { './App': path.join(root, 'App.js') }, shared: { 'shared-greeting': { version: '1.0.0', packagePath: shared } } }),
      recordReferences,
    ],
    resolve: { alias: { 'shared-greeting': shared } },
    build: { write: false, minify: false, target: 'esnext', rollupOptions: { input: path.join(root, 'App.js') } },
  })) as Rollup.RollupOutput;

  expect(written).toContain(referenceId(shared));
  expect(output.output.map((file) => file.fileName)).toEqual(expect.arrayContaining(['assets/remoteEntry.js', expect.stringMatching(/^assets\/__federation_shared_shared-greeting-.*\.js$/)]));
});
