/**
 * `@site/contracts/route-match` decides 200 vs 404 on the server and which remote the shell loads; react-router
 * decides what the remote then renders. They must agree on every path, so this compares them on generated route
 * patterns and URL paths (case changes, trailing and doubled slashes, %20, %2F, malformed escapes, splats,
 * params). It lives in @site/ui because the contracts package imports nothing but zod.
 */
import fc from 'fast-check';
import { matchPath, matchRoutes } from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bestRouteMatch, matchRoutePattern } from '@site/contracts/route-match';

const staticSegment = fc.stringMatching(/^[\w.~-]{1,6}$/);

/** A pattern as remotes write them: static segments, `:params` (distinct names), maybe a trailing `*` or `/`. */
const pattern = fc
  .record({
    segments: fc.array(fc.oneof(staticSegment, fc.constant(':')), { maxLength: 4 }),
    splat: fc.boolean(),
    trailingSlash: fc.boolean(),
  })
  .map(({ segments, splat, trailingSlash }) => {
    const parts = segments.map((s, i) => (s === ':' ? `:p${i}` : s));
    if (splat) return `/${[...parts, '*'].join('/')}`;
    const path = `/${parts.join('/')}`;
    return trailingSlash && parts.length ? `${path}/` : path;
  });

/** Text a URL segment may carry, escapes good and bad included. */
const piece = fc.constantFrom('a', 'B', 'x-y', '%20', '%2F', '%2f', '%41', '%', '%E0%A4%A', '%C3%A9', 'é', ' ', '.', '..', '~', '%25');
const segmentText = fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));

const flipCase = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/** A path derived from a pattern (so most of them match), then mutated the ways URLs really vary. */
function pathFor(p: string) {
  const segments = p.split('/').filter(Boolean);
  return fc
    .record({
      values: fc.array(segmentText, { minLength: segments.length, maxLength: segments.length }),
      flip: fc.array(fc.boolean(), { minLength: segments.length, maxLength: segments.length }),
      encodeStatic: fc.boolean(),
      splatRest: fc.array(segmentText, { maxLength: 3 }),
      trailing: fc.constantFrom('', '/', '//'),
      doubleSlashAt: fc.option(fc.nat({ max: 4 }), { nil: undefined }),
    })
    .map(({ values, flip, encodeStatic, splatRest, trailing, doubleSlashAt }) => {
      const out: string[] = [];
      segments.forEach((s, i) => {
        if (s === '*') out.push(...splatRest);
        else if (s.startsWith(':')) out.push(values[i]!);
        else {
          const cased = flip[i] ? flipCase(s) : s;
          out.push(encodeStatic ? cased.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`) : cased);
        }
      });
      if (doubleSlashAt !== undefined && out.length) out.splice(Math.min(doubleSlashAt, out.length), 0, '');
      return `/${out.join('/')}${trailing}`;
    });
}

const anyPath = fc.array(segmentText, { maxLength: 4 }).map((s) => `/${s.join('/')}`);

/** What the router renders for `path` when its only route is `p`: its params, or null. */
function routerParams(p: string, path: string): Record<string, string | undefined> | null {
  const matches = matchRoutes([{ path: p }], path);
  return matches ? { ...matches[matches.length - 1]!.params } : null;
}

const RUNS = { numRuns: 3000 };

// The router warns on every malformed escape it is given; those are generated on purpose here.
const warn = vi.spyOn(console, 'warn');
beforeAll(() => warn.mockImplementation(() => {}));
afterAll(() => warn.mockRestore());

describe('matchRoutePattern agrees with react-router', () => {
  it('on paths made from the pattern (case, slashes, escapes, splats, params)', () => {
    const cases = pattern.chain((p) => fc.tuple(fc.constant(p), fc.oneof(pathFor(p), anyPath)));
    fc.assert(
      fc.property(cases, ([p, path]) => {
        expect(matchRoutePattern(p, path), `${p} vs ${path}`).toEqual(routerParams(p, path));
      }),
      RUNS,
    );
  });

  it('and with matchPath itself on paths the router does not need to decode', () => {
    const cases = pattern.chain((p) => fc.tuple(fc.constant(p), pathFor(p))).filter(([, path]) => !path.includes('%'));
    fc.assert(
      fc.property(cases, ([p, path]) => {
        const expected = matchPath(p, path);
        expect(matchRoutePattern(p, path), `${p} vs ${path}`).toEqual(expected ? { ...expected.params } : null);
      }),
      RUNS,
    );
  });

  it('picks the same route as the router among several', () => {
    const cases = fc
      .uniqueArray(pattern, { minLength: 1, maxLength: 5 })
      .chain((patterns) => fc.tuple(fc.constant(patterns), fc.oneof(...patterns.map(pathFor), anyPath)));
    fc.assert(
      fc.property(cases, ([patterns, path]) => {
        const matches = matchRoutes(
          patterns.map((p) => ({ path: p })),
          path,
        );
        const expected = matches ? { pattern: matches[0]!.route.path, params: { ...matches[0]!.params } } : null;
        expect(bestRouteMatch(patterns, path), `${patterns.join(' ')} vs ${path}`).toEqual(expected);
      }),
      RUNS,
    );
  });
});
