/*
 * The checks of a release before the deployer changes anything (release-deployer.ts): its name, a downgrade, and the
 * candidate written to a hidden folder and judged as the registry will judge it (format, shell fit, signature, smoke
 * render, server module). A refusal names the cause in full and leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MfeManifest } from '@site/contracts/manifest';
import type { ShellServerEntry } from '@site/contracts/server-render';
import type { Canary } from '../../deploys/deployer-port';
import { ConflictError, RefusedError } from '../../lib/domain-errors';
import {
  RELEASE_NAME,
  RELEASES_DIR,
  checkRelease,
  checkShellRelease,
  importRelease,
  judgeRelease,
  loadErrorText,
  remoteDir,
  strands,
  type AppName,
  type SharedModules,
} from './release-format';
import { SIGNATURE_FILE, verifyRelease, type TrustedKey } from './release-signature';
import { compareVersions, isSemver } from './release-version';
import type { SmokeRenderer } from './smoke-render';

/** A refusal of a release: a 400 whose message names the cause in full. */
export class ReleaseRefusedError extends RefusedError {
  constructor(message: string) {
    super(message, { code: 'release_refused' });
  }
}

export const exists = (file: string) => stat(file).then(
  () => true,
  () => false,
);

/** The next free name: `base`, else base+2, base+3… (base.2… when it has build metadata already). */
export async function freeName(taken: (version: string) => Promise<boolean>, base: string): Promise<string> {
  if (!(await taken(base))) return base;
  const separator = base.includes('+') ? '.' : '+';
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${base}${separator}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new ConflictError(`every name after ${base} is taken: pass a version`);
}

/** The manifest a build of `app` carries: the shell's shell-manifest.json, a remote's mfe-manifest.json. */
export const manifestFile = (app: AppName) => (app === 'shell' ? 'shell-manifest.json' : 'mfe-manifest.json');

/** The version a build's manifest names (the shell's shell-manifest.json, a remote's mfe-manifest.json), if any. */
export function manifestVersion(app: AppName, files: ReadonlyMap<string, Buffer>): string | undefined {
  try {
    const version = (JSON.parse(files.get(manifestFile(app))?.toString('utf8') ?? '') as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The name a build is deployed under when none is asked for: its manifest's version (else `release`), made free. */
export function freeReleaseName(app: AppName, files: ReadonlyMap<string, Buffer>, taken: (version: string) => Promise<boolean>): Promise<string> {
  const version = manifestVersion(app, files);
  // checkRelease names what is wrong with the manifest.
  return freeName(taken, version !== undefined && RELEASE_NAME.test(version) ? version : 'release');
}

/** The version of the whole build of `app` in `dir`, or null when there is none. */
export async function builtVersion(dir: string, app: AppName): Promise<{ version: string } | null> {
  if (app === 'shell') {
    const check = await checkShellRelease(dir).catch(() => null);
    return check?.ok ? { version: check.version } : null;
  }
  const check = await checkRelease(dir, app).catch(() => null);
  return check?.ok ? { version: check.manifest.version } : null;
}

/** Files of a dist folder (path with `/` -> bytes); links and special files are refused. */
export async function readFolder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full).split(path.sep).join('/');
    if (entry.isFile()) files.set(relative, await readFile(full));
    else if (!entry.isDirectory()) throw new Error(`${relative} is not a file or folder`);
  }
  return files;
}

/**
 * Issue 51: a release only goes forward. Serving `version` below `served` (semver precedence; a name that is not a
 * semantic version stands for its manifest's version) is refused unless `allowed`, and then the log says so. Names
 * that compare as no version at all are let through: there is no order to keep. Returns the log's note, or null.
 */
export function downgrade(app: AppName, version: string, files: ReadonlyMap<string, Buffer>, served: string | null, allowed: boolean | undefined, how: string): string | null {
  if (!served) return null;
  let standsFor = version;
  if (!isSemver(version)) {
    try {
      const built = (JSON.parse(files.get(manifestFile(app))?.toString('utf8') ?? '') as { version?: unknown }).version;
      if (typeof built === 'string') standsFor = built;
    } catch {
      // checkRelease names what is wrong with the manifest.
    }
  }
  if (compareVersions(standsFor, served) !== -1) return null;
  if (!allowed) {
    throw new ConflictError(
      `${app} ${version}${standsFor !== version ? ` (version ${standsFor})` : ''} is below ${served}, which is served: a release only goes forward. To serve it anyway, ${how}; to serve a stored release again, roll back to it. Nothing was changed.`,
      { code: 'downgrade_refused' },
    );
  }
  return `a downgrade from ${served} to ${version}, allowed by allowDowngrade (--allow-downgrade)`;
}

/** The version a deploy is named: asked for, else what it was signed as, else its manifest's (made free). */
export async function pickVersion(app: AppName, files: ReadonlyMap<string, Buffer>, asked: string | undefined, taken: (v: string) => Promise<boolean>): Promise<string> {
  let signedAs: string | undefined;
  const signature = files.get(SIGNATURE_FILE);
  if (signature) {
    try {
      const version = (JSON.parse(signature.toString('utf8')) as { version?: unknown }).version;
      if (typeof version === 'string') signedAs = version;
    } catch {
      // The signature check says what is wrong with it.
    }
  }
  const named = asked ?? signedAs;
  if (named !== undefined) {
    if (!RELEASE_NAME.test(named)) throw new ReleaseRefusedError(`${JSON.stringify(named.slice(0, 100))} is not a release name: use letters, digits, . _ + - (not first), at most 100 characters`);
    if (signedAs !== undefined && named !== signedAs) throw new ReleaseRefusedError(`the release is signed as ${signedAs}, not ${named}`);
    if (await taken(named)) throw new ConflictError(`release ${named} of ${app} exists already: a name never changes what it holds. Deploy under another version.`, { code: 'release_exists' });
    return named;
  }
  return freeReleaseName(app, files, taken);
}

/** What a request that would change the app's served release, or start another canary, is told while one runs. */
export function canaryRunning(app: AppName, running: Canary, what: string): ConflictError {
  return new ConflictError(
    `a canary of ${app} ${running.version} runs (${running.percent}% of visitors since ${running.startedAt}), so ${what} must wait: serve it to everyone (POST /api/releases/${app}/promote {"version":"${running.version}"}) or end it (POST /api/releases/${app}/rollback) first`,
    { code: 'canary_running' },
  );
}

/** Writes a candidate into a hidden folder and checks it (see createReleaseChecks); the folder is the caller's to remove. */
export type CheckedFolder = (app: AppName, version: string, files: ReadonlyMap<string, Buffer>, skipLoadCheck?: boolean, smokeRender?: boolean) => Promise<{ dir: string; checked: string[] }>;

export function createReleaseChecks(options: {
  siteRoot: string;
  trustedKeys: readonly TrustedKey[];
  sharedModules: () => Promise<SharedModules | undefined>;
  servedManifests: () => Promise<readonly MfeManifest[]>;
  smoke: SmokeRenderer;
}): { checkedFolder: CheckedFolder } {
  const { siteRoot, smoke } = options;

  /**
   * Writes `files` into a hidden folder beside the releases and checks it as the registry will. Throws why not.
   * `skipLoadCheck` leaves out loading its server code (the registry will refuse it and keep the last good release).
   * `smokeRender`: an upload's pages are rendered first (a rollback, a promotion or a build already served are not).
   */
  async function checkedFolder(app: AppName, version: string, files: ReadonlyMap<string, Buffer>, skipLoadCheck = false, smokeRender = false): Promise<{ dir: string; checked: string[] }> {
    const releases = path.join(remoteDir(siteRoot, app), RELEASES_DIR);
    await mkdir(releases, { recursive: true });
    const dir = path.join(releases, `.incoming-${version}-${randomUUID().slice(0, 8)}`);
    try {
      for (const [file, bytes] of files) {
        const target = path.resolve(dir, file);
        if (!target.startsWith(dir + path.sep)) throw new ReleaseRefusedError(`${file} is outside the release`);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes, { flag: 'wx' });
      }
      if (app === 'shell') return { dir, checked: await checkShell(dir, skipLoadCheck, smokeRender) };
      // The one judgement the registry makes too (release-format's judgeRelease): complete, fitting the shell, signed.
      const check = await judgeRelease(dir, app, { siteRoot, trustedKeys: options.trustedKeys });
      if (!check.ok) {
        if (check.part === 'format') throw new ReleaseRefusedError(`this is not a release of ${app} the site can serve: ${check.problems.join('; ')}`);
        if (check.part === 'shell') throw new ReleaseRefusedError(`${app} ${check.version} cannot be deployed: ${check.problem}`);
        throw new ReleaseRefusedError(`the release is ${check.problem}`);
      }
      const checked = check.checked;
      if (skipLoadCheck) return { dir, checked };
      // On a worker under a deadline, before this thread runs any of its code (a module that loops holds the worker).
      if (smokeRender) await smokeRendered(app, dir, { ...check.manifest, version }, checked);
      const loaded = await importRelease(dir, { ...check.manifest, version }, await options.sharedModules());
      if (!loaded.ok) throw new ReleaseRefusedError(`its server module would not run: ${loaded.reason}`);
      if (check.serverFiles.length > 0) checked.push(`${check.serverFiles.join(', ')} loads`);
      return { dir, checked };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  async function checkSignature(dir: string, app: AppName, checked: string[]): Promise<void> {
    if (options.trustedKeys.length === 0) return;
    const signature = await verifyRelease(dir, app, options.trustedKeys);
    if (!signature.ok) throw new ReleaseRefusedError(`the release is not signed by a key trusted for ${app}: ${signature.reason}`);
    checked.push(`${SIGNATURE_FILE} (key ${signature.key})`);
  }

  /**
   * A shell release: whole (index.html, shell-manifest.json), stranding no served remote (each must be able to run in
   * what it provides), signed when keys are trusted, and its server entry loading. Returns what was checked.
   */
  async function checkShell(dir: string, skipLoadCheck: boolean, smokeRender: boolean): Promise<string[]> {
    const check = await checkShellRelease(dir);
    if (!check.ok) throw new ReleaseRefusedError(`this is not a complete release of the shell: ${check.problems.join('; ')}`);
    const checked = [...check.checked];
    const stranded = (await options.servedManifests()).map((manifest) => strands(manifest, check.builtWith)).filter((problem): problem is string => Boolean(problem));
    if (stranded.length > 0) {
      throw new ReleaseRefusedError(`shell ${check.version} would strand ${stranded.length === 1 ? 'a served remote' : `${stranded.length} served remotes`}, which could not run in it: ${stranded.join('; ')}. Deploy remotes built against it first.`);
    }
    await checkSignature(dir, 'shell', checked);
    const entry = path.join(dir, 'server', 'entry.js');
    if (!skipLoadCheck && smokeRender) await smokeRendered('shell', dir, undefined, checked);
    if (!skipLoadCheck && (await exists(entry))) {
      try {
        // Loaded once under a name of its own (the server loads the served one by its own URL).
        const imported = (await import(/* @vite-ignore */ `${pathToFileURL(entry).href}?check=${randomUUID()}`)) as Partial<ShellServerEntry>;
        if (typeof imported.renderPage !== 'function') throw new Error('it does not export renderPage()');
      } catch (error) {
        throw new ReleaseRefusedError(`its server entry would not run: server/entry.js does not load: ${loadErrorText(error, entry, 'server/entry.js')}`);
      }
      checked.push('server/entry.js loads');
    }
    return checked;
  }

  /** The smoke render of an upload (smoke-render.ts): refuses a page that throws or runs past the deadline. */
  async function smokeRendered(app: AppName, dir: string, manifest: MfeManifest | undefined, checked: string[]): Promise<void> {
    const report = await smoke.render({ app, dir, ...(manifest ? { manifest } : {}), siteRoot, served: await options.servedManifests() });
    if (!report) return;
    const urls = report.pages.map((p) => p.url);
    const named = urls.length > 6 ? `${urls.slice(0, 5).join(', ')} and ${urls.length - 5} more` : urls.join(', ');
    checked.push(`${urls.length} ${urls.length === 1 ? 'page renders' : 'pages render'} (${named})`);
  }

  return { checkedFolder };
}
