/*
 * What a build was made against, and whether a remote built against one set of shared packages can run in a shell
 * that provides another. Zod-free: the build (packages/vite-config), the deploy script and the server all use it.
 *
 * The shell provides the shared singletons (one React, one router, one design system) to every remote through
 * Module Federation. A remote built against React 19.3 that lands in a shell providing React 18 would break at run
 * time (or worse, render a second React). The federation runtime's own answer is `requiredVersion` +
 * `strictVersion`: here the remote's requirement is the caret range of what it was built against (`^19.3.1`), as
 * npm reads a dependency, and the deploy refuses a release the serving shell cannot satisfy, before anything moves.
 */

/**
 * Version of the server-render contract (what a remote's server entry exports and what `render` is given and
 * answers: `ServerRemoteModule` in ./server-render). Raised on any change a server of the old contract could not
 * use; a release built for another contract is refused.
 */
export const SERVER_CONTRACT_VERSION = 1;

/**
 * Packages whose one copy every remote shares with the shell: the federation singletons, and the two workspace
 * packages whose types and rules cross the boundary.
 */
export const SHARED_SINGLETONS = ['react', 'react-dom', 'react-router-dom', 'zustand', '@site/ui', '@site/contracts'] as const;
export type SharedSingleton = (typeof SHARED_SINGLETONS)[number];

/** `builtWith` of a manifest: the shared packages' versions the build resolved, and its server contract. */
export interface BuiltWith {
  shared: Partial<Record<SharedSingleton, string>>;
  serverContract: number;
}

type Semver = [number, number, number];

function parseSemver(version: string): Semver | null {
  const match = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:[-+].*)?$/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

const compare = (a: Semver, b: Semver) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `provided` satisfies `^required`: same major (same minor below 1.0, same patch below 0.1), and not older.
 * An unparsable version satisfies only itself.
 */
export function satisfiesCaret(provided: string, required: string): boolean {
  const [p, r] = [parseSemver(provided), parseSemver(required)];
  if (!p || !r) return provided.trim() === required.trim();
  if (p[0] !== r[0]) return false;
  if (r[0] === 0 && p[1] !== r[1]) return false;
  if (r[0] === 0 && r[1] === 0 && p[2] !== r[2]) return false;
  return compare(p, r) >= 0;
}

/**
 * Why a remote built with `remote` cannot run in a shell built with `shell`, one sentence per problem; empty when it
 * can. A build that does not say what it was built against (older than this check) is taken on trust.
 */
export function compatibilityProblems(remote: BuiltWith | undefined, shell: BuiltWith | undefined): string[] {
  if (!remote || !shell) return [];
  const problems: string[] = [];
  if (remote.serverContract !== shell.serverContract) {
    problems.push(`it was built for server contract ${remote.serverContract}, the shell serves contract ${shell.serverContract}`);
  }
  for (const name of SHARED_SINGLETONS) {
    const required = remote.shared[name];
    const provided = shell.shared[name];
    if (!required) continue;
    if (!provided) problems.push(`it needs ${name} ^${required}, which the shell does not provide`);
    else if (!satisfiesCaret(provided, required)) problems.push(`it was built against ${name} ${required} (needs ^${required}), the shell provides ${provided}`);
  }
  return problems;
}
