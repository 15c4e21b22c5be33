import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { remotesMapSchema } from '@site/contracts/manifest';
import { asRemotesMap } from '../lib/remotes-map';

const info = fc.record(
  { entry: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), version: fc.oneof(fc.string(), fc.integer()), routes: fc.oneof(fc.array(fc.string()), fc.array(fc.jsonValue()), fc.string()), owns: fc.oneof(fc.array(fc.string()), fc.array(fc.jsonValue()), fc.string()) },
  { requiredKeys: [] },
);
const name = fc.oneof(fc.constantFrom('marketing', 'analysis', 'blog', 'admin'), fc.string());
const candidate = fc.oneof(fc.dictionary(name, fc.oneof(info, fc.jsonValue())), fc.jsonValue());

describe('asRemotesMap', () => {
  it('accepts exactly what remotesMapSchema accepts', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        expect(asRemotesMap(value) !== null).toBe(remotesMapSchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns the map the server inlines', () => {
    const map = { marketing: { entry: '/mfe/marketing/assets/remoteEntry.js', version: '1.0.0', routes: ['/', '/roi-calculator'] }, blog: { entry: '/mfe/blog/assets/remoteEntry.js', version: '2', routes: [] } };
    expect(asRemotesMap(map)).toEqual(map);
    expect(asRemotesMap({})).toEqual({});
    expect(asRemotesMap({ shop: map.blog })).toBeNull();
    expect(asRemotesMap({ blog: { ...map.blog, entry: '' } })).toBeNull();
    expect(asRemotesMap([map])).toBeNull();
    // The counterexample fast-check found (seed -1164716689): an own "__proto__" key is left out, as zod does.
    const polluted = JSON.parse('{"__proto__": 0, "blog": ' + JSON.stringify(map.blog) + '}') as unknown;
    expect(remotesMapSchema.safeParse(polluted).success).toBe(true);
    expect(asRemotesMap(polluted)).toEqual({ blog: map.blog });
    expect(Object.hasOwn(asRemotesMap(polluted)!, '__proto__')).toBe(false);
  });
});
