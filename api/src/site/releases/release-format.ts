/*
 * The release format of a remote: its layout below SITE_ROOT, its names, what makes a release complete, and the one
 * way its server module is imported and judged. The server (remote-registry.ts) and `npm run deploy`/`rollback`
 * (scripts/deploy-remote.mjs, through the built api/dist/release-deployer.js) both use this module, so a release the
 * deploy accepts is one the server serves, for the same reasons.
 *
 *   mfe-<name>/releases/<version>/   a full dist, never changed once its pointer may name it
 *   mfe-<name>/history.json          { stack: [versions, oldest first], keptDist?, builds?, servedBuild? } for
 *                                    rollback and the import of builds (ReleaseHistory; no log: the deploy log is it)
 *   mfe-<name>/current               the served version (one line), swapped by write-temp-then-rename, after history
 *   mfe-<name>/dist/                 what `npm run build` writes: served only when there is no `current`
 *   mfe-<name>/staged/<version>/     a release uploaded staged (issue 34): served to no one but a browser with its
 *                                    preview link, until promoted (then moved to releases/). Nothing that reads
 *                                    releases/ (the serving order, earlier releases' chunks, the release sync) sees it.
 */
import { open, readFile, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { compileFunction } from 'node:vm';
import { transform } from 'esbuild';
import { refreshStats, statGeneration, statShared } from '../../lib/stat-shared';
import { REMOTE_NAMES, mfeManifestSchema, shellManifestSchema, type MfeManifest, type RemoteName } from '@site/contracts/manifest';
import { compatibilityProblems, type BuiltWith } from '@site/contracts/release-compat';
import type { RemoteServerModule, ServerRouteDef } from '@site/contracts/server-render';

export { REMOTE_NAMES, type RemoteName };
// Signing is part of the format: `npm run deploy` signs with the team's key, the server verifies (release-signature.ts).
export { parseTrustedKeys, signFiles, signRelease, SIGNATURE_FILE, verifyRelease } from './release-signature';
import { SIGNATURE_FILE, verifyRelease, type SignatureCheck, type TrustedKey } from './release-signature';
// What a release may declare (its routes, its size) is the site's: checked wherever a manifest is read (issue 51).
import { currentReleasePolicy, manifestPolicyProblems, manifestSizeProblem, type ReleasePolicy } from './release-policy';
export { currentReleasePolicy, releasePolicy, useReleasePolicy, type ReleasePolicy } from './release-policy';
// Over HTTP, `npm run deploy -- <app> --to <url>` sends the build as a .tar.gz (release-tarball.ts reads it on the server).
export { packReleaseTarball } from './release-tarball';
export const RELEASES_DIR = 'releases';
/** Staged releases (uploaded with `--stage` / `?stage=1`): beside releases/, never one of them until promoted. */
export const STAGED_DIR = 'staged';
export const POINTER_FILE = 'current';
export const HISTORY_FILE = 'history.json';
export const MANIFEST_FILE = 'mfe-manifest.json';
/** Where the serving shell says what it provides to the remotes (written by its build). */
export const SHELL_MANIFEST_FILE = path.join('shell', 'dist', 'shell-manifest.json');
/** A release folder name: what `current` may hold. No dot first, so `.incoming-*` copies can never be named. */
export const RELEASE_NAME = /^[A-Za-z0-9][\w.+-]{0,99}$/;
/** The remote entry every release must hold (the shell loads `/mfe/<name>/assets/remoteEntry.js`). */
export const REMOTE_ENTRY_FILE = 'assets/remoteEntry.js';
/** How many earlier releases still answer for content-hashed assets (open tabs of an older version). */
export const PREVIOUS_RELEASES_SERVED = 5;

/** The five apps of the release model: the shell and the four remotes. */
export type AppName = 'shell' | RemoteName;
/** An app's folder below SITE_ROOT: `shell/`, `mfe-<remote>/` (its releases/, current, history.json and dist/). */
export const remoteDir = (siteRoot: string, name: AppName) => path.join(siteRoot, name === 'shell' ? 'shell' : `mfe-${name}`);
export const releaseDir = (siteRoot: string, name: AppName, version: string) => path.join(remoteDir(siteRoot, name), RELEASES_DIR, version);
export const stagedDir = (siteRoot: string, name: AppName, version: string) => path.join(remoteDir(siteRoot, name), STAGED_DIR, version);
export const distDir = (siteRoot: string, name: AppName) => path.join(remoteDir(siteRoot, name), 'dist');

/**
 * The folder of the shell being served: `shell/releases/<current>/` when the shell's pointer names a complete release
 * (its index.html and shell-manifest.json are there), else `shell/dist/` (before the shell's first release). Read
 * per call, cheaply: the pointer is re-read only when it changes.
 */
const shellPointers = new Map<string, { key: string; version: string; stack: string[] }>();
/** RELEASE_TRUSTED_KEYS of the server serving a site root (app.ts sets it): the shell runs only when they verify it. */
const shellTrust = new Map<string, readonly TrustedKey[]>();
const shellVerified = new Map<string, { key: string; check: Promise<{ ok: boolean; reason?: string }> }>();
/** The last shell release that verified, per site root: served while a newer one does not. */
const lastGoodShell = new Map<string, { dir: string; version: string }>();
export function trustShellKeys(siteRoot: string, keys: readonly TrustedKey[]): void {
  shellTrust.set(siteRoot, keys);
  shellAnswers.delete(siteRoot);
}

/** With trusted keys, whether the shell release in `dir` is signed by a key trusted for the shell (cached per folder). */
async function shellSigned(siteRoot: string, dir: string): Promise<boolean> {
  const keys = shellTrust.get(siteRoot) ?? [];
  if (keys.length === 0) return true;
  const info = await statShared(path.join(dir, SIGNATURE_FILE));
  const key = info ? `${info.mtimeMs}:${info.size}` : 'absent';
  let entry = shellVerified.get(dir);
  if (entry?.key !== key) {
    entry = { key, check: verifyRelease(dir, 'shell', keys) };
    shellVerified.set(dir, entry);
  }
  return (await entry.check).ok;
}

/**
 * Which release of an app is served, in the order to try them: the one place that decides it for the shell and the
 * remotes alike (issue 33). The release the pointer names; else the last good one this process served; else the
 * releases below the pointer in the history's stack, newest first (after a restart, nothing else remembers). The first
 * that may be served is (complete, signed when keys are trusted, fitting the shell, its server code loading: each
 * app's server says what it checks). On PostgreSQL the pointer and the stack are the shared store's, copied as they
 * are by the release sync (release-sync.ts), which also copies the releases in this order.
 */
export function servingOrder(pointer: string, lastGood: string | undefined, stack: readonly string[]): string[] {
  const at = stack.lastIndexOf(pointer);
  const below = at >= 0 ? stack.slice(0, at) : [...stack];
  return [...new Set([pointer, ...(lastGood ? [lastGood] : []), ...below.reverse()])];
}

/** The last answer per site root, with the stats' generation it was worked out at (lib/stat-shared.ts). */
const shellAnswers = new Map<string, { generation: number; answer: Promise<{ dir: string; version: string | null }> }>();

export function currentShell(siteRoot: string): Promise<{ dir: string; version: string | null }> {
  // Every page asks: while no file it read has changed, the answer is the one worked out before.
  const generation = statGeneration();
  const known = shellAnswers.get(siteRoot);
  if (known?.generation === generation) return known.answer;
  const answer = findShell(siteRoot);
  shellAnswers.set(siteRoot, { generation, answer });
  // A failed look is not kept.
  answer.catch(() => {
    if (shellAnswers.get(siteRoot)?.answer === answer) shellAnswers.delete(siteRoot);
  });
  return answer;
}

async function findShell(siteRoot: string): Promise<{ dir: string; version: string | null }> {
  const shellDir = remoteDir(siteRoot, 'shell');
  const pointer = path.join(shellDir, POINTER_FILE);
  // Held in memory (lib/stat-shared.ts): every page asks, and a warm page makes no filesystem call.
  const info = await statShared(pointer);
  if (info) {
    const key = `${info.ino}:${info.mtimeMs}:${info.size}`;
    let cached = shellPointers.get(siteRoot);
    if (cached?.key !== key) {
      // history.json is written before the pointer: read again with it.
      cached = { key, version: (await readFile(pointer, 'utf8').catch(() => '')).trim(), stack: (await readHistory(shellDir)).stack };
      shellPointers.set(siteRoot, cached);
    }
    const good = lastGoodShell.get(siteRoot);
    for (const version of servingOrder(cached.version, good?.version, cached.stack)) {
      // Checked when it was first served in this process.
      if (version === good?.version && version !== cached.version) return good;
      if (!RELEASE_NAME.test(version)) continue;
      const dir = releaseDir(siteRoot, 'shell', version);
      // Whatever the pointer or the database say, a shell no trusted key signed does not run.
      if ((await isKnownFile(path.join(dir, 'index.html'))) && (await isKnownFile(path.join(dir, 'shell-manifest.json'))) && (await shellSigned(siteRoot, dir))) {
        lastGoodShell.set(siteRoot, { dir, version });
        return { dir, version };
      }
    }
  }
  // Before the shell's first release. With trusted keys, a shell/dist built in place is code nobody signed: served only when it verifies.
  const dist = distDir(siteRoot, 'shell');
  return (await shellSigned(siteRoot, dist)) ? { dir: dist, version: null } : { dir: path.join(shellDir, '.no-signed-shell'), version: null };
}

/** Whether `dir` holds a complete shell build: index.html and a valid shell-manifest.json (every problem listed). */
export async function checkShellRelease(dir: string): Promise<{ ok: true; version: string; builtWith: BuiltWith; checked: string[] } | { ok: false; problems: string[] }> {
  const read = await readShellManifest(dir);
  const problems = [...('reason' in read ? [read.reason] : []), ...((await isFile(path.join(dir, 'index.html'))) ? [] : ['index.html is missing'])];
  if ('reason' in read || problems.length > 0) return { ok: false, problems };
  const checked = [`shell-manifest.json (shell ${read.version})`, 'index.html'];
  if (await isFile(path.join(dir, 'server', 'entry.js'))) checked.push('server/entry.js');
  return { ok: true, version: read.version, builtWith: read.builtWith, checked };
}

const isFile = async (file: string) => {
  try {
    const info = await stat(file);
    return info.isFile() && info.size > 0;
  } catch {
    return false;
  }
};
/** isFile as of the last check (lib/stat-shared.ts): for what a page reads, never for a release being checked. */
const isKnownFile = async (file: string) => {
  const info = await statShared(file);
  return Boolean(info?.isFile() && info.size > 0);
};
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

/**
 * Why a module did not load, in full: esbuild's errors with their file, line and column ("Transform failed with 1
 * error:" alone says nothing), else the error and where in the file it was thrown.
 */
export function loadErrorText(error: unknown, file: string, relative: string): string {
  const errors = (error as { errors?: Array<{ text?: string; location?: { line?: number; column?: number; lineText?: string } | null }> } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return errors
      .slice(0, 3)
      .map((e) => `${relative}${e.location ? `:${e.location.line}:${e.location.column}` : ''}: ${e.text ?? 'error'}${e.location?.lineText ? ` (in: ${e.location.lineText.trim().slice(0, 120)})` : ''}`)
      .join('; ')
      .slice(0, 1000);
  }
  const message = errorText(error);
  const frame = (error instanceof Error ? (error.stack ?? '') : '').split('\n').find((line) => line.includes(file));
  const at = frame ? /:(\d+):(\d+)\)?\s*$/.exec(frame) : null;
  return at ? `${message} (at ${relative}:${at[1]}:${at[2]})` : message;
}

/** The server modules a manifest names (`server.routes`, `server.entry`): [key, path relative to the dist]. */
export function serverFiles(manifest: MfeManifest): Array<['routes' | 'entry', string]> {
  const server = manifest.server ?? {};
  return (['routes', 'entry'] as const).flatMap((key) => (server[key] ? [[key, server[key]] as ['routes' | 'entry', string]] : []));
}

/**
 * A dist's manifest, read and validated: this remote's, with a version and routes, within the policy's limits and
 * declaring only its own routes (release-policy.ts). A manifest over the byte limit is not read at all.
 */
export async function readManifest(dir: string, name: RemoteName, policy: ReleasePolicy = currentReleasePolicy()): Promise<{ manifest: MfeManifest } | { reason: string }> {
  let raw: string;
  try {
    const handle = await open(path.join(dir, MANIFEST_FILE), 'r');
    try {
      const tooLarge = manifestSizeProblem((await handle.stat()).size, policy);
      if (tooLarge) return { reason: tooLarge };
      raw = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return { reason: `${MANIFEST_FILE} is missing` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // Mid-copy (the dist layout) or hand-edited: read again when it changes.
    return { reason: `${MANIFEST_FILE} is not valid JSON` };
  }
  const parsed = mfeManifestSchema.safeParse(json);
  if (!parsed.success) {
    const named = (json as { name?: unknown } | null)?.name;
    if (typeof named === 'string' && named !== name) return { reason: `${MANIFEST_FILE} names the remote "${named}", not "${name}"` };
    const issue = parsed.error.issues[0];
    return { reason: `${MANIFEST_FILE} is invalid${issue ? ` (${issue.path.join('.') || 'its root'}: ${issue.message})` : ''}` };
  }
  if (parsed.data.name !== name) return { reason: `${MANIFEST_FILE} names the remote "${parsed.data.name}", not "${name}"` };
  const refused = manifestPolicyProblems(parsed.data, name, policy);
  if (refused.length > 0) return { reason: refused.join('; ') };
  return { manifest: parsed.data };
}

export type ReleaseCheck =
  | { ok: true; manifest: MfeManifest; checked: string[]; serverFiles: string[] }
  | { ok: false; problems: string[] };

/**
 * Whether `dir` holds a complete build of remote `name`: a valid manifest of this remote, `assets/remoteEntry.js`,
 * and every server module the manifest names. Every problem is listed.
 */
export async function checkRelease(dir: string, name: RemoteName, policy?: ReleasePolicy): Promise<ReleaseCheck> {
  const read = await readManifest(dir, name, policy);
  if ('reason' in read) return { ok: false, problems: [read.reason] };
  const { manifest } = read;
  const problems: string[] = [];
  const checked = [`${MANIFEST_FILE} (${manifest.name} ${manifest.version})`];
  if (await isFile(path.join(dir, REMOTE_ENTRY_FILE))) checked.push(REMOTE_ENTRY_FILE);
  else problems.push(`${REMOTE_ENTRY_FILE} is missing`);
  const files = [...new Set(serverFiles(manifest).map(([, file]) => file))];
  for (const file of files) {
    if (await isFile(path.resolve(dir, file))) checked.push(file);
    else problems.push(`${file} is missing`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, manifest, checked, serverFiles: files };
}

/**
 * The one judgement of a remote's release folder (issue 51), for every writer and reader of releases: complete
 * (checkRelease: its files, its manifest, the site's route and size policy), able to run in the serving shell, and
 * signed by a key trusted for the remote when keys are trusted. The deployer asks it of an upload, a local deploy, a
 * rollback and a promotion (then loads its server code and, for an upload, smoke-renders it); the registry asks it of
 * every release it would load. `verify` lets the registry keep its per-folder signature checks.
 */
export async function judgeRelease(
  dir: string,
  name: RemoteName,
  options: { siteRoot: string; trustedKeys: readonly TrustedKey[]; verify?: (dir: string, name: RemoteName) => Promise<SignatureCheck> },
): Promise<
  | { ok: true; manifest: MfeManifest; checked: string[]; serverFiles: string[] }
  | { ok: false; part: 'format' | 'shell' | 'signature'; problem: string; problems: string[]; version?: string }
> {
  const check = await checkRelease(dir, name);
  if (!check.ok) return { ok: false, part: 'format', problem: check.problems[0]!, problems: check.problems };
  const incompatible = incompatibility(check.manifest, await readShellBuiltWith(options.siteRoot));
  if (incompatible) return { ok: false, part: 'shell', problem: incompatible, problems: [incompatible], version: check.manifest.version };
  const checked = [...check.checked];
  if (options.trustedKeys.length > 0) {
    const signature = await (options.verify ?? ((d, n) => verifyRelease(d, n, options.trustedKeys)))(dir, name);
    if (!signature.ok) {
      const problem = `not signed by a key trusted for ${name}: ${signature.reason}`;
      return { ok: false, part: 'signature', problem, problems: [problem] };
    }
    checked.push(`${SIGNATURE_FILE} (key ${signature.key})`);
  }
  return { ok: true, manifest: check.manifest, checked, serverFiles: check.serverFiles };
}

/** What the shell serving from `siteRoot` provides (its build's shell-manifest.json); undefined for an older build. */
export async function readShellBuiltWith(siteRoot: string): Promise<BuiltWith | undefined> {
  const read = await readShellManifest((await currentShell(siteRoot)).dir);
  return 'builtWith' in read ? read.builtWith : undefined;
}

/** A shell build's `shell-manifest.json` in `dir` (what it provides to the remotes), or why it cannot be read. */
export async function readShellManifest(dir: string): Promise<{ builtWith: BuiltWith; version: string } | { reason: string }> {
  let raw: string;
  try {
    raw = await readFile(path.join(dir, 'shell-manifest.json'), 'utf8');
  } catch {
    return { reason: 'shell-manifest.json is missing' };
  }
  try {
    const parsed = shellManifestSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { builtWith: parsed.data.builtWith, version: parsed.data.version } : { reason: 'shell-manifest.json is not a shell manifest' };
  } catch {
    return { reason: 'shell-manifest.json is not valid JSON' };
  }
}

/** Why a served remote (its manifest) could not run in a shell that provides `shell`, or undefined when it could. */
export function strands(manifest: MfeManifest, shell: BuiltWith): string | undefined {
  const problems = compatibilityProblems(manifest.builtWith, shell);
  return problems.length > 0 ? `${manifest.name} ${manifest.version}: ${problems.join('; ')}` : undefined;
}

/** Why this release cannot run in the serving shell, or undefined when it can (see release-compat). */
export function incompatibility(manifest: MfeManifest, shell: BuiltWith | undefined): string | undefined {
  const problems = compatibilityProblems(manifest.builtWith, shell);
  return problems.length > 0 ? `it cannot run in the serving shell: ${problems.join('; ')}` : undefined;
}

/**
 * Replaces `file` with `content` as one step: written to a temp file beside it, flushed, renamed over it. A reader
 * sees the old content or the new, never a part (how `current` and history.json are written, by the deploy script
 * and by each instance copying shared releases).
 */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  // This process changed what is served: its next request reads the files again.
  refreshStats();
}

/**
 * An app's release history (history.json; on PostgreSQL its pointer row): the stack of versions served, oldest first,
 * that a rollback walks down, and the facts the deployer decides by. What happened is the deploy log's
 * (deploys/deploy-log.ts), the one log.
 */
export interface ReleaseHistory {
  stack: string[];
  /** The release holding `<app>/dist` as it was served before the first deploy (the first rollback's target). */
  keptDist?: string;
  /** The releases imported from the app's build (`<app>/dist`) at a start, oldest first. */
  builds?: string[];
  /** The release the pointer was last moved to by importing a build: `npm start` (RELEASE_IMPORT_BUILDS=changed) replaces only it. */
  servedBuild?: string;
}

/** Imported builds remembered (the oldest is the one a rollback may reach at the bottom of the stack). */
const BUILDS_KEPT = 100;
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * A history as written: its named facts, or, from a history.json or pointer row written before issue 51 (a `log` of
 * what happened), the same facts read once from that log, so a site upgraded in place keeps its rollback target.
 */
export function parseHistory(value: unknown): ReleaseHistory {
  const written = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const history: ReleaseHistory = { stack: strings(written.stack) };
  if (Array.isArray(written.log)) {
    const entries = written.log.filter((e): e is { action?: unknown; version?: unknown } => Boolean(e) && typeof e === 'object');
    const kept = entries.findLast((e) => e.action === 'keep-dist')?.version;
    const builds = entries.filter((e) => e.action === 'import-build').map((e) => e.version);
    const last = entries.findLast((e) => ['import-build', 'deploy', 'rollback', 'promote'].includes(String(e.action)));
    return withFacts(history, { keptDist: kept, builds, servedBuild: last?.action === 'import-build' ? last.version : undefined });
  }
  return withFacts(history, written);
}

function withFacts(history: ReleaseHistory, facts: { keptDist?: unknown; builds?: unknown; servedBuild?: unknown }): ReleaseHistory {
  if (typeof facts.keptDist === 'string') history.keptDist = facts.keptDist;
  const builds = strings(facts.builds).slice(-BUILDS_KEPT);
  if (builds.length > 0) history.builds = builds;
  if (typeof facts.servedBuild === 'string') history.servedBuild = facts.servedBuild;
  return history;
}

/** A history as history.json holds it (the facts a pointer row holds are the same, less the stack). */
export function historyText(history: ReleaseHistory): string {
  return `${JSON.stringify(withFacts({ stack: history.stack }, history), null, 2)}\n`;
}

/** The history a shared pointer holds (releases-repository.ts: its stack and stored facts). */
export const pointerHistory = (pointer: { stack: string[]; facts: Record<string, unknown> }): ReleaseHistory => parseHistory({ ...pointer.facts, stack: pointer.stack });

/** What a shared pointer stores of a history besides its stack. */
export function historyFacts(history: ReleaseHistory): Record<string, unknown> {
  const { stack: _stack, ...facts } = withFacts({ stack: [] }, history);
  return facts;
}

/** history.json of the app in `dir`. Missing or unreadable: empty. */
export async function readHistory(dir: string): Promise<ReleaseHistory> {
  try {
    return parseHistory(JSON.parse(await readFile(path.join(dir, HISTORY_FILE), 'utf8')));
  } catch {
    return { stack: [] };
  }
}

/** What a server module must export to count as loaded, or why it does not: the route table, and the entry's render. */
export function moduleProblem(key: 'routes' | 'entry', imported: unknown): string | undefined {
  const value = imported as { routes?: unknown; render?: unknown } | null;
  const routes = value?.routes;
  if (!Array.isArray(routes)) return 'it does not export a `routes` array';
  const bad = routes.find((r: ServerRouteDef | null) => !r || typeof r.path !== 'string' || (r.head !== undefined && typeof r.head !== 'function'));
  if (bad !== undefined) return 'its `routes` are not all { path, data?, head? }';
  if (key === 'entry' && typeof value?.render !== 'function') return 'it does not export a `render` function';
  if (value?.render !== undefined && typeof value.render !== 'function') return '`render` is not a function';
  return undefined;
}

/** The packages a server entry imports without bundling them, by specifier (the shell's own instances). */
export type SharedModules = Readonly<Record<string, unknown>>;

export type ImportResult = { ok: true; module: RemoteServerModule } | { ok: false; reason: string };

/**
 * Evaluates one server module file as a function of its own: the ES module is turned into a CommonJS body (esbuild)
 * and compiled with `vm.compileFunction`, its imports answered from `shared` (the shell's React, router…) or else
 * resolved from the node_modules above the file. Unlike `import()`, whose module map keeps every URL for the life of
 * the process, nothing holds a module loaded this way but its users: when no snapshot serves a release any more, its
 * code is garbage like any other object, so memory stays flat however many releases are deployed.
 */
async function evaluate(file: string, shared: SharedModules | undefined): Promise<unknown> {
  const source = await readFile(file, 'utf8');
  const { code } = await transform(source, { format: 'cjs', platform: 'node', target: 'node20', loader: 'js', sourcefile: file, logLevel: 'silent' });
  const body = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const nodeRequire = createRequire(file);
  const requireShared = (specifier: string): unknown => (shared && Object.hasOwn(shared, specifier) ? shared[specifier] : nodeRequire(specifier));
  const module = { exports: {} as Record<string, unknown> };
  body.call(module.exports, module.exports, requireShared, module, file, path.dirname(file));
  return module.exports;
}

/**
 * The one importer of a release's server module: loads `relative` inside `dir` (see evaluate) and judges its exports
 * (moduleProblem). A failure to load or the wrong exports says why; there is no timeout to mistake for a verdict,
 * since evaluating a file does not wait on anything.
 */
export async function importServerModule(dir: string, relative: string, key: 'routes' | 'entry', shared?: SharedModules): Promise<ImportResult> {
  const root = path.resolve(dir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return { ok: false, reason: `${relative} is outside the release` };
  let imported: unknown;
  try {
    imported = await evaluate(file, shared);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return { ok: false, reason: code === 'ENOENT' ? `${relative} is missing` : `${relative} does not load: ${loadErrorText(error, file, relative)}` };
  }
  const problem = moduleProblem(key, imported);
  return problem ? { ok: false, reason: `${relative} does not load: ${problem}` } : { ok: true, module: imported as RemoteServerModule };
}

/**
 * Loads every server module a release's manifest names, as the server will. Answers the module to render with (the
 * entry, else the route table), null when it names none, or why it does not load. A file named twice
 * (`server.routes` and `server.entry` are usually the same) is loaded once.
 */
export async function importRelease(dir: string, manifest: MfeManifest, shared?: SharedModules): Promise<{ ok: true; module: RemoteServerModule | null } | { ok: false; reason: string }> {
  const files = serverFiles(manifest);
  const byFile = new Map<string, Promise<ImportResult>>();
  let module: RemoteServerModule | null = null;
  for (const [key, relative] of files) {
    const entryKey = files.some(([k, f]) => k === 'entry' && f === relative) ? 'entry' : key;
    let pending = byFile.get(relative);
    if (!pending) byFile.set(relative, (pending = importServerModule(dir, relative, entryKey, shared)));
    const result = await pending;
    if (!result.ok) return result;
    if (key === 'entry' || !module) module = result.module;
  }
  return { ok: true, module };
}
