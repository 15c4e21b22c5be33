import { describe, expect, it } from 'vitest';
import { compareVersions } from '../release-version';

describe('compareVersions (semver 2.0 precedence)', () => {
  it('orders MAJOR.MINOR.PATCH numerically, pre-releases below their release, build metadata ignored', () => {
    const ascending = ['0.5.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0', '2.1.0', '10.0.0'];
    for (let i = 0; i < ascending.length - 1; i++) {
      expect(compareVersions(ascending[i]!, ascending[i + 1]!), `${ascending[i]} < ${ascending[i + 1]}`).toBe(-1);
      expect(compareVersions(ascending[i + 1]!, ascending[i]!)).toBe(1);
    }
    // A build import, a kept dist and a renamed re-deploy all stand for 1.0.0.
    expect(compareVersions('1.0.0+build.1a2b3c4d', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0+dist', '1.0.0+2')).toBe(0);
    expect(compareVersions('0.9.9', '1.0.0+build.1a2b3c4d')).toBe(-1);
  });

  it('has no order for a name that is not a semantic version', () => {
    expect(compareVersions('release', '1.0.0')).toBeNull();
    expect(compareVersions('1.0', '1.0.0')).toBeNull();
    expect(compareVersions('01.0.0', '1.0.0')).toBeNull();
    expect(compareVersions('1.0.0', 'build.1a2b3c4d')).toBeNull();
  });
});
