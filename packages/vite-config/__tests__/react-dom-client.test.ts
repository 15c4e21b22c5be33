import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withoutLoadTimeErrors } from '../react-dom-client';

// React DOM's production client as the shell's build reads it.
const shellRequire = createRequire(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shell/package.json'));
const REACT_DOM_CLIENT = path.join(path.dirname(shellRequire.resolve('react-dom/package.json')), 'cjs/react-dom-client.production.js');

/**
 * Evaluates a CommonJS file as the browser evaluates its chunk, with a global `Error` that counts how many errors
 * (and so stack captures) are made while it loads.
 */
function evaluate(code: string): { errorsCreated: number; exports: Record<string, unknown> } {
  let errorsCreated = 0;
  const RealError = Error;
  function CountingError(this: unknown, message?: string, options?: ErrorOptions) {
    errorsCreated++;
    return new RealError(message, options);
  }
  CountingError.prototype = RealError.prototype;
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', 'Error', code)(shellRequire, module, module.exports, CountingError);
  return { errorsCreated, exports: module.exports };
}

describe("React DOM's client, as the shell's build evaluates it", () => {
  const original = readFileSync(REACT_DOM_CLIENT, 'utf8');

  it('creates no Error while it loads (under DevTools each one re-parses the whole module for its stack)', () => {
    // The file as published makes its sentinels at load time: the cost this build step removes.
    expect(evaluate(original).errorsCreated).toBeGreaterThan(0);
    const { code, sentinels } = withoutLoadTimeErrors(original);
    expect(sentinels).toEqual(expect.arrayContaining(['SuspenseException (460)', 'HydrationMismatchException (519)', 'SelectiveHydrationException (461)']));
    const loaded = evaluate(code);
    expect(loaded.errorsCreated).toBe(0);
    expect(typeof loaded.exports.hydrateRoot).toBe('function');
    expect(typeof loaded.exports.createRoot).toBe('function');
  });

  it('keeps each sentinel an Error with its message, made once', () => {
    const { code } = withoutLoadTimeErrors('var SuspenseException = Error(formatProdErrorMessage(460));\nfunction formatProdErrorMessage(id) { return "Minified React error #" + id; }\nmodule.exports = { a: SuspenseException, b: SuspenseException };');
    const { exports, errorsCreated } = evaluate(code);
    expect(errorsCreated).toBe(0);
    expect(exports.a).toBe(exports.b);
    expect(exports.a).toBeInstanceOf(Error);
    expect((exports.a as Error).message).toBe('Minified React error #460');
    expect(String(exports.a)).toBe('Error: Minified React error #460');
  });

  it('leaves a file without sentinels as it is', () => {
    const code = 'module.exports = function f() { throw Error(formatProdErrorMessage(1)); };';
    expect(withoutLoadTimeErrors(code)).toEqual({ code, sentinels: [] });
  });
});
