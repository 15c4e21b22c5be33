import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_NAMES, type AppName } from '@site/contracts/app-names';
import { freeName, manifestVersion, readFolder } from './release-checks';
import { SIGNATURE_FILE, signFiles } from './release-signature';
import { packReleaseTarball } from './release-tarball';

/*
 * Deploys over HTTP (issues 33 and 52): the site's POST /api/releases/<app> takes a built folder as a .tar.gz with the
 * app's deploy token, checks it as it will serve it and switches it on every instance. Both `npm run deploy -- <app>
 * --to <url>` (scripts/deploy-remote.mjs) and the one-file tool the site serves at /site-deploy.mjs
 * (site-deploy-cli.ts) run these commands: the release is read, named, signed and packed here with the server's own code
 * (the deployer's readFolder and freeName, release-signature, release-tarball). The site checks it with its own
 * policy: the tool holds no copy of the site's configuration that could disagree with it (`--dry-run` asks the site).
 */

export class DeployToolError extends Error {}

export const OVER_HTTP_COMMANDS = ['deploy', 'promote', 'rollback', 'status', 'list'] as const;
export type OverHttpCommand = (typeof OVER_HTTP_COMMANDS)[number];

export interface OverHttpOptions {
  /** The site's URL (its origin is used). */
  to: string;
  token?: string;
  /** deploy: the built folder (absolute). */
  from?: string;
  /** deploy: the signing key's file (absolute); else RELEASE_SIGNING_KEY. */
  key?: string;
  version?: string;
  stage?: boolean;
  dryRun?: boolean;
  allowDowngrade?: boolean;
  notes?: string;
  commit?: string;
  ciUrl?: string;
  percent?: string;
  promoteAfter?: string;
  wait?: boolean;
  /** --wait's limit, in seconds (default 600). */
  timeout?: string;
  json?: boolean;
}

/** The command line's flags (node:util parseArgs values) as the options; the site, folder and key already resolved. */
export function overHttpOptions(values: Readonly<Record<string, string | boolean | undefined>>, resolved: { to: string; from: string; key: string | undefined }): OverHttpOptions {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const flag = (name: string) => (typeof values[name] === 'boolean' ? (values[name] as boolean) : undefined);
  return {
    ...resolved,
    token: text('token'),
    version: text('version'),
    stage: flag('stage'),
    dryRun: flag('dry-run'),
    allowDowngrade: flag('allow-downgrade'),
    notes: text('notes'),
    commit: text('commit'),
    ciUrl: text('ci-url'),
    percent: text('percent'),
    promoteAfter: text('promote-after'),
    wait: flag('wait'),
    timeout: text('timeout'),
    json: flag('json'),
  };
}

/** What the sender checks of a build before sending it: its version, else every problem found. */
export type BuildCheck = { ok: true; version: string } | { ok: false; problems: string[] };

export interface OverHttpIo {
  env: Readonly<Record<string, string | undefined>>;
  out: (line: string) => void;
  /** How a follow-up command is written for this user: `hint('promote', 'blog', '--version 1.2.0')`. */
  hint: (command: OverHttpCommand, app: string, args: string) => string;
  /** Shown paths are relative to where the command was typed. */
  cwd: string;
  /** --wait's pause between two looks (2 s). */
  pollMs?: number;
  clock?: () => number;
  /**
   * The check before sending (default: the folder holds the app's manifest with its version). `npm run deploy` runs
   * the server's full format and policy check here, with the serving machine's environment.
   */
  check?: (dir: string, app: AppName) => Promise<BuildCheck>;
}

/** What GET /api/releases/{app}/status answers (issue 52); read defensively, an older or newer site may differ. */
export interface AppStatus {
  served: string | { version: string; since?: string } | null;
  staged: Array<string | { version: string; createdAt?: string; by?: string | null }>;
  canary: null | {
    version: string;
    percent: number;
    startedAt: string;
    promoteAfter: string | null;
    pageViews: number;
    errors: number;
    errorRate: number | null;
    servedErrorRate: number | null;
  };
  log: Array<{ action: string; version: string | null; at: string; result: string; reason?: string | null; message?: string | null; notes?: string | null; commit?: string | null; by?: string | null }>;
}

const POLL_MS = 2000;
const DEFAULT_WAIT_SECONDS = 600;

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);
const minute = (at: string | null | undefined) => (at ? at.slice(0, 16).replace('T', ' ') : '?');
const versionOf = (served: AppStatus['served']) => (served === null || served === undefined ? null : typeof served === 'string' ? served : served.version);
const percentText = (rate: number | null | undefined) => (typeof rate === 'number' ? `${(rate * 100).toFixed(rate < 0.01 && rate > 0 ? 2 : 1)}%` : 'n/a');

export function isAppName(name: string | undefined): name is AppName {
  return (APP_NAMES as readonly string[]).includes(name ?? '');
}

/** --percent as a number (1 to 100), or undefined. */
export function percentOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new DeployToolError(`--percent is a whole number from 1 to 100 (the share of visitors; 100: everyone), not ${JSON.stringify(value)}`);
  return percent;
}

/** --promote-after: a date and time with its offset, or a delay from now (`90s`, `30m`, `2h`). */
export function promoteAfterOf(value: string | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  const delay = /^\+?(\d+)([hms])$/.exec(value.trim());
  if (delay) return new Date(now + Number(delay[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[delay[2] as 's' | 'm' | 'h']).toISOString();
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/.test(value)) {
    throw new DeployToolError(`--promote-after is a date and time with its offset (2026-11-28T09:00:00Z) or a delay from now (90s, 30m, 2h), not ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The signing key: --key (a file), else RELEASE_SIGNING_KEY (the PEM itself, or the path of a file holding it),
 * checked up front. Undefined when neither is given.
 */
async function readSigningKey(keyFile: string | undefined, env: OverHttpIo['env'], app: AppName, cwd: string): Promise<string | undefined> {
  let key = env.RELEASE_SIGNING_KEY || undefined;
  let file = keyFile;
  if (!file && key && !key.includes('-----BEGIN')) file = path.resolve(cwd, key);
  if (file) {
    try {
      key = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new DeployToolError(`cannot read the signing key ${file}${keyFile ? '' : ' (RELEASE_SIGNING_KEY)'}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
    }
  }
  try {
    if (key) signFiles(new Map(), app, 'check', key);
  } catch (error) {
    throw new DeployToolError((error as Error).message);
  }
  return key;
}

/** The site's answer as JSON; anything but 2xx throws what the site said (its message and error code). */
function client(site: string, token: string) {
  return async function call<T = unknown>(method: string, route: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; json: T }> {
    let res: Response;
    try {
      res = await fetch(`${site}${route}`, { method, headers: { authorization: `Bearer ${token}`, ...headers }, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      throw new DeployToolError(`${site} did not answer: ${cause?.message ?? (error as Error).message}`);
    }
    const text = await res.text();
    let json: { error?: { message?: string; code?: string } } | undefined;
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const message = json?.error?.message ?? (text.slice(0, 500).trim() || res.statusText);
      const error = new DeployToolError(`${site} answered ${res.status}: ${message}${json?.error?.code ? ` (${json.error.code})` : ''}`);
      throw Object.assign(error, { status: res.status });
    }
    return { status: res.status, json: json as T };
  };
}
type Call = ReturnType<typeof client>;

interface Change {
  app: string;
  version: string;
  previous: string | null;
  checked: string[];
  percent?: number;
  promoteAfter?: string;
  previewUrl?: string;
  dryRun?: boolean;
}

/**
 * Runs one command against the site at `options.to`; resolves with the exit code, throws DeployToolError with what is
 * wrong (exit 1).
 */
export async function runOverHttp(command: OverHttpCommand, app: AppName, options: OverHttpOptions, io: OverHttpIo): Promise<number> {
  let site: string;
  try {
    site = new URL(options.to).origin;
  } catch {
    throw new DeployToolError(`--to is the site's URL (https://example.com), not ${JSON.stringify(options.to)}`);
  }
  const token = options.token || io.env.DEPLOY_TOKEN;
  if (!token) throw new DeployToolError('a deploy over HTTP needs a deploy token: --token <token> or DEPLOY_TOKEN (the admin creates one on the Deploys screen)');
  const call = client(site, token);
  const releases = `/api/releases/${encodeURIComponent(app)}`;
  const { out, hint } = io;
  const withSite = `--to ${site} --token <token>`;

  if (command === 'list') {
    const list = (await call<{ served: { version: string; since: string } | null; releases: Array<{ version: string; createdAt: string; files: number; staged?: boolean; current?: boolean; by?: string | null }> }>('GET', releases)).json;
    out(`${app} on ${site}: ${list.served ? `serves ${list.served.version} since ${minute(list.served.since)} UTC` : 'no release yet'}`);
    for (const release of list.releases) {
      out(`${release.current ? '*' : ' '} ${release.version.padEnd(24)} ${minute(release.createdAt)}  ${release.files} files  ${release.staged ? 'staged  ' : ''}${release.by ?? ''}`);
    }
    return 0;
  }
  if (command === 'status') {
    const status = await readStatus(call, site, app);
    if (options.json) out(JSON.stringify(status, null, 2));
    else printStatus(status, app, site, out);
    return 0;
  }
  if (command === 'promote') {
    if (!options.version) throw new DeployToolError(`name the staged release: --version <version> (${hint('list', app, withSite)} marks staged ones)`);
    const percent = percentOf(options.percent);
    const promoteAfter = promoteAfterOf(options.promoteAfter, (io.clock ?? Date.now)());
    const waitSeconds = options.timeout === undefined ? DEFAULT_WAIT_SECONDS : Number(options.timeout);
    if (!(waitSeconds > 0)) throw new DeployToolError(`--timeout is a number of seconds above 0, not ${JSON.stringify(options.timeout)}`);
    const body = {
      version: options.version,
      ...(percent !== undefined ? { percent } : {}),
      ...(promoteAfter ? { promoteAfter } : {}),
      ...(options.allowDowngrade ? { allowDowngrade: true } : {}),
    };
    const change = (await call<Change>('POST', `${releases}/promote`, JSON.stringify(body), { 'content-type': 'application/json' })).json;
    if (change.percent !== undefined) {
      out(
        `${app} ${change.version} serves ${change.percent}% of visitors on ${site} as a canary (sticky per visitor); the others keep ${change.previous}.` +
          ` It is rolled back by itself if its error rate passes the threshold${change.promoteAfter ? `, and served to everyone at ${change.promoteAfter}` : ''}.` +
          ` Serve it to everyone: ${hint('promote', app, `--version ${change.version} ${withSite}`)}; end it: ${hint('rollback', app, withSite)}`,
      );
    } else out(`${app} ${change.version} is live on ${site} (was ${change.previous ?? 'nothing'}); checked ${change.checked.join(', ')}`);
    // Served to everyone already: nothing to follow.
    if (!options.wait || change.percent === undefined) return 0;
    return waitForOutcome(call, site, app, change.version, waitSeconds * 1000, io);
  }
  if (command === 'rollback') {
    const change = (await call<Change>('POST', `${releases}/rollback`, JSON.stringify(options.version ? { version: options.version } : {}), { 'content-type': 'application/json' })).json;
    out(`${app} ${change.version} is live again on ${site} (was ${change.previous}); checked ${change.checked.join(', ')}`);
    return 0;
  }

  // deploy: the built folder, checked here as the server checks it, signed under the name it will have, then sent.
  const from = options.from;
  if (!from) throw new DeployToolError('name the built folder: --from <dir>');
  const shown = path.relative(io.cwd, from).startsWith('..') ? from : path.relative(io.cwd, from) || '.';
  let files: Map<string, Buffer>;
  try {
    files = await readFolder(from);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DeployToolError(`cannot read ${shown}: ${code === 'ENOENT' ? 'no such folder (build it first, or pass --from <dir>)' : (error as Error).message}`);
  }
  files.delete(SIGNATURE_FILE);
  const check = await (io.check ?? (async () => versionCheck(app, files)))(from, app);
  if (!check.ok) throw new DeployToolError(`${shown} cannot be deployed:\n  - ${check.problems.join('\n  - ')}`);
  const builtVersion = check.version;
  const key = await readSigningKey(options.key, io.env, app, io.cwd);
  if (options.dryRun) await checkDryRunSupported(site);
  let version = options.version;
  if (key) {
    // Signed under the name it will have: asked for, else the manifest's version made free on the site.
    if (!version) {
      const taken = new Set((await call<{ releases: Array<{ version: string }> }>('GET', releases)).json.releases.map((release) => release.version));
      version = await freeName(async (v) => taken.has(v), builtVersion);
    }
    files.set(SIGNATURE_FILE, signFiles(files, app, version, key));
  }
  const body = await packReleaseTarball(files);
  out(`${app}: ${options.dryRun ? 'checking' : 'sending'} ${shown} (${builtVersion}${version && version !== builtVersion ? ` as ${version}` : ''}, ${files.size} files, ${size(body.length)} compressed${key ? ', signed' : ''}) ${options.dryRun ? 'on' : 'to'} ${site}`);
  // Provenance goes as query parameters, like the rest of the upload's options: the body is the archive alone.
  const query = new URLSearchParams({
    ...(version ? { version } : {}),
    ...(options.stage ? { stage: '1' } : {}),
    ...(options.dryRun ? { dryRun: '1' } : {}),
    ...(options.allowDowngrade ? { allowDowngrade: '1' } : {}),
    ...(options.notes ? { notes: options.notes } : {}),
    ...(options.commit ? { commit: options.commit } : {}),
    ...(options.ciUrl ? { ciUrl: options.ciUrl } : {}),
  }).toString();
  const change = (await call<Change>('POST', `${releases}${query ? `?${query}` : ''}`, body, { 'content-type': 'application/gzip' })).json;
  out(`  checked ${change.checked.join(', ')}`);
  if (options.dryRun) {
    out(`${app} ${change.version} passed every check of ${site}: nothing was stored, ${change.previous ?? 'nothing'} stays served. Deploy it with the same command without --dry-run.`);
    return 0;
  }
  if (options.stage) {
    out(`${app} ${change.version} is stored staged on ${site}: served to no one (${change.previous ?? 'nothing'} stays served). Serve it with: ${hint('promote', app, `--version ${change.version} ${withSite}`)}`);
    // The last line: what a person opens (valid 24 hours; the site's Deploys screen gives a fresh one).
    out(change.previewUrl ?? 'Preview link: the site did not give one (a shell release has none yet)');
    return 0;
  }
  out(`${app} ${change.version} is live on ${site} (was ${change.previous ?? 'nothing'}). Undo with: ${hint('rollback', app, withSite)}`);
  return 0;
}

/** The default check: a build of `app` names its version in its manifest; the site checks the rest. */
function versionCheck(app: AppName, files: ReadonlyMap<string, Buffer>): BuildCheck {
  const manifest = app === 'shell' ? 'shell-manifest.json' : 'mfe-manifest.json';
  if (!files.has(manifest)) return { ok: false, problems: [`${manifest} is missing: this is not a build of ${app}`] };
  const version = manifestVersion(app, files);
  return version ? { ok: true, version } : { ok: false, problems: [`${manifest} names no version (or is not valid JSON)`] };
}

/**
 * A site that does not know `?dryRun=1` ignores it and would serve the release: the upload's parameters in the site's
 * OpenAPI document must name it before anything is sent.
 */
async function checkDryRunSupported(site: string): Promise<void> {
  let document: { paths?: Record<string, { post?: { parameters?: Array<{ name?: string; in?: string }> } }> };
  try {
    const res = await fetch(`${site}/api/openapi.json`);
    if (!res.ok) throw new Error(`it answered ${res.status}`);
    document = (await res.json()) as typeof document;
  } catch (error) {
    throw new DeployToolError(`cannot tell whether ${site} takes a dry run (GET /api/openapi.json: ${(error as Error).message}): nothing was sent`);
  }
  const parameters = document.paths?.['/api/releases/{app}']?.post?.parameters ?? [];
  if (!parameters.some((p) => p.name === 'dryRun' && p.in === 'query')) {
    throw new DeployToolError(`this site does not take a dry run yet (its POST /api/releases/{app} has no dryRun parameter, so it would store the release): nothing was sent`);
  }
}

async function readStatus(call: Call, site: string, app: AppName): Promise<AppStatus> {
  try {
    return (await call<AppStatus>('GET', `/api/releases/${encodeURIComponent(app)}/status`)).json;
  } catch (error) {
    if ((error as { status?: number }).status === 404) throw new DeployToolError(`this site (${site}) does not have /api/releases/${app}/status yet`);
    throw error;
  }
}

function canaryText(canary: NonNullable<AppStatus['canary']>): string {
  return `${canary.version} to ${canary.percent}% since ${minute(canary.startedAt)} UTC${canary.promoteAfter ? `, to everyone at ${minute(canary.promoteAfter)} UTC` : ''}: ${canary.pageViews} page views, ${canary.errors} error${canary.errors === 1 ? '' : 's'}, error rate ${percentText(canary.errorRate)} (served release: ${percentText(canary.servedErrorRate)})`;
}

function printStatus(status: AppStatus, app: string, site: string, out: (line: string) => void): void {
  const served = versionOf(status.served);
  const since = typeof status.served === 'object' && status.served?.since ? ` since ${minute(status.served.since)} UTC` : '';
  out(`${app} on ${site}: ${served ? `serves ${served}${since}` : 'no release yet'}`);
  out(`  canary: ${status.canary ? canaryText(status.canary) : 'none'}`);
  const staged = (status.staged ?? []).map((s) => (typeof s === 'string' ? s : s.version));
  out(`  staged: ${staged.length > 0 ? staged.join(', ') : 'none'}`);
  if ((status.log ?? []).length === 0) return;
  out('  log (newest first):');
  for (const entry of status.log) {
    const why = entry.reason ?? entry.message;
    const provenance = [entry.commit && `commit ${entry.commit}`, entry.notes && `"${entry.notes}"`].filter(Boolean).join(' ');
    out(`    ${minute(entry.at)}  ${entry.action.padEnd(16)} ${(entry.version ?? '-').padEnd(20)} ${entry.result.padEnd(8)} ${entry.by ?? ''}${provenance ? `  ${provenance}` : ''}${why ? `  (${why})` : ''}`);
  }
}

/**
 * promote --wait (issue 52): follows the release until it is served to everyone (0), is rolled back (1, with the
 * deploy log's reason) or the time is up (1), printing the split and the error rates as they change.
 */
async function waitForOutcome(call: Call, site: string, app: AppName, version: string, timeoutMs: number, io: OverHttpIo): Promise<number> {
  const clock = io.clock ?? Date.now;
  const deadline = clock() + timeoutMs;
  let last = '';
  for (;;) {
    const status = await readStatus(call, site, app);
    const served = versionOf(status.served);
    if (!status.canary && served === version) {
      io.out(`${app} ${version} is served to everyone on ${site}.`);
      return 0;
    }
    if (!status.canary || status.canary.version !== version) {
      // The canary ended: the deploy log says how, once its entry is written (the served release and the canary may
      // be read between the two). Only entries since the canary's own start count (the log is newest first; no clock
      // of this machine is compared with the site's).
      const log = status.log ?? [];
      const started = log.findIndex((e) => e.action === 'canary' && e.version === version && e.result === 'ok');
      const ended = (started >= 0 ? log.slice(0, started) : log).find((e) => e.result === 'ok' && ((e.action === 'promote' && e.version === version) || /rollback/.test(e.action)));
      if (ended?.action === 'promote') {
        io.out(`${app} ${version} was served to everyone on ${site}${served !== version ? ` (${served ?? 'nothing'} is served now)` : ''}.`);
        return 0;
      }
      if (ended) {
        // Rolled back, by itself or by someone: a `canary_rollback` (the check, or a rollback request), or a
        // `rollback` to a named release.
        throw new DeployToolError(`${app} ${version} was rolled back on ${site}${ended.by ? ` by ${ended.by}` : ''}: ${ended.reason ?? ended.message ?? `${served ?? 'nothing'} is served`}`);
      }
      if (clock() >= deadline) throw new DeployToolError(`${app} ${version} is no longer a canary on ${site}, and its deploy log does not say why after ${Math.round(timeoutMs / 1000)} s (--timeout)`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, Math.max(0, deadline - clock()))));
      continue;
    }
    const line = `  ${canaryText(status.canary)}`;
    if (line !== last) io.out(line);
    last = line;
    if (clock() >= deadline) {
      throw new DeployToolError(`${app} ${version} is still a canary on ${site} (${status.canary.percent}% of visitors) after ${Math.round(timeoutMs / 1000)} s (--timeout): it keeps running; promote it or roll it back`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(io.pollMs ?? POLL_MS, Math.max(0, deadline - clock()))));
  }
}
