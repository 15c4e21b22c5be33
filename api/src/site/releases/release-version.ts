/*
 * Which of two release names is the later version (issue 51: a release only goes forward unless asked). Semantic
 * Versioning 2.0 precedence: MAJOR.MINOR.PATCH, then a pre-release is below its release, build metadata ignored, so a
 * build import (`1.0.0+build.<hash>`), a kept dist (`1.0.0+dist`) and a renamed re-deploy (`1.0.0+2`) all equal 1.0.0.
 * Written here rather than taken from a package: these few rules are the whole of what the deployer needs.
 */

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-z-][\da-z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-z-][\da-z-]*))*))?(?:\+[\da-z-]+(?:\.[\da-z-]+)*)?$/i;

interface Parsed {
  core: [string, string, string];
  pre: string[];
}

function parse(version: string): Parsed | null {
  const match = SEMVER.exec(version);
  if (!match) return null;
  return { core: [match[1]!, match[2]!, match[3]!], pre: match[4] ? match[4].split('.') : [] };
}

/** Whether `version` is a semantic version (build metadata allowed). */
export const isSemver = (version: string) => SEMVER.test(version);

/** Numeric identifiers without leading zeros: the longer is the larger, else the string order is the number order. */
const compareNumbers = (a: string, b: string) => (a.length !== b.length ? Math.sign(a.length - b.length) : a < b ? -1 : a > b ? 1 : 0);
const NUMERIC = /^\d+$/;

function compareIdentifiers(a: string, b: string): number {
  const [numA, numB] = [NUMERIC.test(a), NUMERIC.test(b)];
  if (numA && numB) return compareNumbers(a, b);
  // A numeric identifier is below an alphanumeric one; alphanumeric ones compare in ASCII order.
  if (numA !== numB) return numA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` in semver precedence; null when either is not a semantic version. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | null {
  const [pa, pb] = [parse(a), parse(b)];
  if (!pa || !pb) return null;
  for (let i = 0; i < 3; i++) {
    const order = compareNumbers(pa.core[i]!, pb.core[i]!);
    if (order !== 0) return order as -1 | 1;
  }
  // A pre-release is below the release itself.
  if (pa.pre.length === 0 || pb.pre.length === 0) return pa.pre.length === pb.pre.length ? 0 : pa.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(pa.pre.length, pb.pre.length); i++) {
    const order = compareIdentifiers(pa.pre[i]!, pb.pre[i]!);
    if (order !== 0) return order as -1 | 1;
  }
  return Math.sign(pa.pre.length - pb.pre.length) as -1 | 0 | 1;
}
