import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * React DOM's client, evaluated without parsing it twice on the main thread.
 *
 * `react-dom/client` is CommonJS that picks its build with a conditional require, so the bundler wraps the whole
 * 200 kB library in one function that runs on first require. The browser compiles a module's top-level code while it
 * downloads it, off the main thread, but a function only when it is first called, on the main thread: wrapped, React
 * DOM was parsed and compiled there, in the task that evaluated it. In a production build the shell imports the production file itself, which has
 * no conditional require, and CommonJS modules are wrapped only when they must be (`strictRequires: 'auto'`: a
 * conditional or circular require), so React DOM's code is the chunk's top-level code.
 *
 * Its chunk also starts with V8's compile hint `//# allFunctionsCalledOnLoad`: nearly all of React DOM runs while the
 * page hydrates, so the browser compiles all of its functions while the chunk downloads, off the main thread, instead
 * of each on its first call, in the middle of hydration (docs/decisions.md).
 */
export const COMPILE_ALL_HINT = '//# allFunctionsCalledOnLoad\n';
export function reactDomClientAtTopLevelPlugin(root: string): Plugin {
  let production: string | undefined;
  return {
    name: 'site:react-dom-client-at-top-level',
    apply: 'build',
    config(_config, { mode }) {
      if (mode !== 'production') return;
      production = realpathSync(path.join(root, 'node_modules/react-dom/cjs/react-dom-client.production.js'));
      return {
        resolve: { alias: [{ find: /^react-dom\/client$/, replacement: production }] },
        build: { commonjsOptions: { strictRequires: 'auto' } },
      };
    },
    generateBundle(_options, bundle) {
      if (!production) return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk' && c.moduleIds.includes(production!));
      if (chunks.length !== 1) this.error(`site:react-dom-client-at-top-level: React DOM's client is in ${chunks.length} chunks, not one`);
      const chunk = chunks[0] as { code: string };
      chunk.code = COMPILE_ALL_HINT + chunk.code;
    },
  };
}
