import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { onwarn } from '../build-logs';
import { remoteConfig, shellConfig } from '../index';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

// A comment naming @__PURE__ where Rollup cannot use it: what zod 4's regexes.js and util.js hold.
const MISPLACED_ANNOTATION = '// Wrapped in a `@__PURE__` IIFE below\nexport const value = 1;\n';
const FILES: Record<string, string> = {
  '/virtual/node_modules/dep/index.js': MISPLACED_ANNOTATION.replace('value', 'dep'),
  '/virtual/src/own.js': MISPLACED_ANNOTATION.replace('value', 'own'),
  '/virtual/src/main.js': "import { dep } from '/virtual/node_modules/dep/index.js';\nimport { own } from '/virtual/src/own.js';\nexport const sum = eval('dep + own');\n",
};

describe('build warnings (onwarn of the shared config)', () => {
  it("drops Rollup's INVALID_ANNOTATION for files under node_modules only; the same in our code and every other warning still show", async () => {
    const shown: Array<[string | undefined, string | undefined]> = [];
    await build({
      configFile: false,
      logLevel: 'silent',
      plugins: [{ name: 'virtual-files', resolveId: (id) => (id in FILES ? id : undefined), load: (id) => FILES[id] }],
      build: {
        write: false,
        minify: false,
        lib: { entry: '/virtual/src/main.js', formats: ['es'] },
        // The shared handler, with the default handler replaced by one that records what would be printed.
        rollupOptions: { onwarn: (warning) => onwarn(warning, (log) => void shown.push([(log as Rollup.RollupLog).code, (log as Rollup.RollupLog).id])) },
      },
    });
    expect(shown).toEqual([
      ['INVALID_ANNOTATION', '/virtual/src/own.js'],
      ['EVAL', '/virtual/src/main.js'],
    ]);
  });

  it('is the handler of the shell and every remote build', () => {
    expect(shellConfig({ root: `${REPO}shell`, port: 5173 }).build?.rollupOptions?.onwarn).toBe(onwarn);
    expect(remoteConfig({ root: `${REPO}mfe-marketing`, name: 'marketing', port: 5174 }).build?.rollupOptions?.onwarn).toBe(onwarn);
  });
});
