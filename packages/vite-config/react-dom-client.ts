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
 *
 * And it creates no `Error` while it is evaluated (`withoutLoadTimeErrors`).
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
    transform(code, id) {
      if (!production || id.split('?')[0] !== production) return null;
      const rewritten = withoutLoadTimeErrors(code);
      if (rewritten.sentinels.length === 0) this.error(`site:react-dom-client-at-top-level: no load-time Error sentinel found in ${production}; see withoutLoadTimeErrors`);
      return { code: rewritten.code, map: null };
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

/** React DOM's sentinels: `SuspenseException = Error(formatProdErrorMessage(460))`, created once when the file is evaluated. */
const SENTINEL = /\b(\w+Exception) = Error\(formatProdErrorMessage\((\d+)\)\)/g;
const ERROR_WITHOUT_STACK = '__siteErrorWithoutStack';

/**
 * React DOM's production file with its load-time sentinels (the values React throws to unwind a render: a suspended
 * component, a hydration mismatch; compared by identity, never shown) made without capturing a stack.
 *
 * Creating an `Error` captures the stack, and when DevTools' Runtime domain is on without its Debugger domain
 * (Playwright, which our INP and long-task scripts drive; DevTools with its console open) a full stack with line
 * numbers: V8 then parses the whole calling module again for its source positions, and for five `Error`s at the top
 * level of React DOM's chunk that module is React DOM itself: 50-54 ms of a 70 ms evaluation at 4x CPU on a slower
 * machine (docs/decisions.md, "A page comes to life in slices"). A visitor's browser, without DevTools, does not pay
 * it; the measuring scripts did, and so measured a longer task than a visitor has. The sentinels stay
 * `instanceof Error` with the same message; only their stack, which would point at React DOM's loading and not at any
 * caller, is gone.
 */
export function withoutLoadTimeErrors(code: string): { code: string; sentinels: string[] } {
  const sentinels: string[] = [];
  const rewritten = code.replace(SENTINEL, (_all, name: string, id: string) => {
    sentinels.push(`${name} (${id})`);
    return `${name} = ${ERROR_WITHOUT_STACK}(formatProdErrorMessage(${id}))`;
  });
  if (sentinels.length === 0) return { code, sentinels };
  return {
    sentinels,
    code: `${rewritten}
function ${ERROR_WITHOUT_STACK}(message) {
  var error = Object.create(Error.prototype);
  Object.defineProperty(error, "message", { value: message, writable: !0, configurable: !0 });
  return error;
}
`,
  };
}
