// The site's CSP forbids eval. Zod would otherwise probe `new Function` to JIT-compile its parsers, which the
// browser reports as a CSP violation; jitless parsing is plenty fast for forms and API answers.
//
// Set without importing zod: @site/ui loads on every page, zod only with the code that parses (a form, an API
// answer), so importing it here would put ~90 kB gz of zod on every first visit. zod keeps its configuration on
// `globalThis.__zod_globalConfig` and adopts an object already there (zod/v4/core/core.js:
// `globalThis.__zod_globalConfig ??= {}`; `z.config()` returns it), so this flag is in force whichever copy of
// zod loads later. packages/ui/src/__tests__/zod-csp.test.ts checks that zod still reads it.
type ZodGlobal = { __zod_globalConfig?: { jitless?: boolean } };
const g = globalThis as ZodGlobal;
(g.__zod_globalConfig ??= {}).jitless = true;

export {};
