import { describe, expect, it } from 'vitest';

describe('zod-csp', () => {
  it('makes zod jitless without importing it, whether zod loads before or after', async () => {
    await import('../zod-csp');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // Parsing an object schema must not probe `new Function` (the CSP would report it).
    const original = globalThis.Function;
    let probed = false;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        probed = true;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(z.object({ a: z.string(), b: z.number().optional() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      globalThis.Function = original;
    }
    expect(probed).toBe(false);
  });
});
