// The commands on this machine: deploy, promote, rollback and list of one app, and deploy --all.
import path from 'node:path';
import { DeployError, REPO_ROOT, rel, size } from './common.mjs';
import { appDir, asDeployError, logged, openDeployer, readDistFiles, readSigning } from './local-deployer.mjs';
import { REMOTES, server } from './server.mjs';
import { USAGE } from './usage.mjs';

/** What a canary's start says: who gets what, and how to end it either way. */
const canaryLine = (name, change, where, options = '') =>
  `${name} ${change.version} serves ${change.percent}% of visitors on ${where} as a canary (sticky per visitor); the others keep ${change.previous}.` +
  ` It is rolled back by itself if its error rate passes the threshold${change.promoteAfter ? `, and served to everyone at ${change.promoteAfter}` : ''}.` +
  ` Serve it to everyone: npm run promote -- ${name} --version ${change.version}${options}; end it: npm run rollback -- ${name}${options}`;

/** --percent as a number (1 to 100), or undefined. */
export function percentOf(value) {
  if (value === undefined) return undefined;
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new DeployError(`--percent is a whole number from 1 to 100 (the share of visitors; 100: everyone), not ${JSON.stringify(value)}`);
  return percent;
}

export async function promote({ name, siteRoot, version, percent, promoteAfter, skipLoadCheck, store, allowDowngrade }) {
  if (!version) throw new DeployError(`name the staged release: npm run promote -- ${name} --version <version> (node scripts/deploy-remote.mjs list ${name} marks staged ones)`);
  const deployer = await openDeployer(siteRoot, store);
  const change = await deployer.promote(name, { by: 'npm run promote', from: null }, { version, skipLoadCheck, allowDowngrade, ...(percent !== undefined ? { percent } : {}), ...(promoteAfter ? { promoteAfter } : {}) }).catch((error) => {
    throw asDeployError(error);
  });
  if (change.percent !== undefined) {
    console.log(canaryLine(name, change, 'every instance'));
    return change;
  }
  console.log(`${name}: promoted ${change.version}; verified ${change.checked.join(', ')}`);
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${change.previous ?? '(none)'} -> ${change.version}`);
  console.log(`${name} ${change.version} ${store ? 'is live on every instance within seconds' : 'is live within a second (the server looks at the folder every second)'}, no restart.${change.previous ? ` Undo with: npm run rollback -- ${name}` : ''}`);
  return change;
}

export async function deploy({ name, siteRoot, from, version, skipLoadCheck, store, signing, stage, allowDowngrade, provenance }) {
  const deployer = await openDeployer(siteRoot, store, stage);
  const files = await readDistFiles(from);
  files.delete(server.SIGNATURE_FILE);
  const built = server.manifestVersion(name, files) ?? null;
  if (signing?.key) {
    // Signed under the name it is deployed as: --version, else the name the deployer would give it.
    if (!version) {
      const taken = new Set((await deployer.list(name)).releases.map((release) => release.version));
      version = await server.freeReleaseName(name, files, async (v) => taken.has(v));
    }
    files.set(server.SIGNATURE_FILE, server.signFiles(files, name, version, signing.key));
  }
  const bytes = [...files.values()].reduce((sum, file) => sum + file.length, 0);
  const where = store ? 'the shared release store (every instance)' : rel(appDir(siteRoot, name));
  console.log(`${name}: deploying ${rel(from)} (${built ?? 'no version'}${version && version !== built ? ` as ${version}` : ''}, ${files.size} files, ${size(bytes)}) to ${where}`);
  const dist = rel(path.join(appDir(siteRoot, name), 'dist'));
  let kept = null;
  const keptDist = (notice) => {
    if ('notKept' in notice) return console.warn(`  ${notice.notKept}`);
    kept = notice.kept.version;
    const as = store ? kept : rel(path.join(appDir(siteRoot, name), 'releases', kept));
    console.log(`  kept ${dist}, served until now, as ${as} (${notice.kept.files} files, ${size(notice.kept.bytes)}): the rollback target`);
  };
  const change = await deployer.deploy(name, files, { by: 'npm run deploy', from: null }, { version, skipLoadCheck, keptDist, stage, allowDowngrade, provenance }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`  verified ${change.checked.join(', ')}`);
  if (stage) {
    console.log(`${name} ${change.version} is stored staged: served to no one (${change.previous ?? 'nothing'} stays served). Serve it with: npm run promote -- ${name} --version ${change.version}`);
    // The last line: what a person opens.
    console.log(change.previewUrl ?? `Preview link: the site's Deploys screen lists it (with the site's PUBLIC_ORIGIN and PREVIEW_SECRET set here, it is printed here)`);
    return change;
  }
  const before = change.previous === null ? '(none)' : kept && change.previous === kept ? `(none: ${path.basename(appDir(siteRoot, name))}/dist was served, kept as ${kept})` : change.previous;
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${before} -> ${change.version}`);
  const undo = change.previous ? `Undo with: npm run rollback -- ${name}` : 'Nothing was served before it, so there is nothing to roll back to.';
  const live = store ? 'is live on every instance within seconds, no restart (/api/health lists what each serves)' : 'is live within a second, no restart (/api/health lists it)';
  console.log(`${name} ${change.version} ${live}. ${undo}`);
  return change;
}

export async function rollback({ name, siteRoot, to, skipLoadCheck, store }) {
  const deployer = await openDeployer(siteRoot, store);
  const change = await deployer.rollback(name, { by: 'npm run rollback', from: null }, { version: to, skipLoadCheck }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`${name}: rolled back to ${change.version}; verified ${change.checked.join(', ')}`);
  const again = change.previous ? ` (${change.previous} stays ${store ? 'stored' : 'on disk'}: npm run rollback -- ${name} --to ${change.previous} serves it again)` : '';
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${change.previous ?? '(none)'} -> ${change.version}${again}`);
  console.log(`${name} ${change.version} is live again${store ? ' on every instance within seconds' : ' within a second'}, no restart.`);
  return change;
}

export async function list({ name, siteRoot, store }) {
  const deployer = await openDeployer(siteRoot, store);
  const [releases, history] = await Promise.all([deployer.list(name), deployer.history(name)]);
  const below = history ? history.stack[history.stack.lastIndexOf(history.version) - 1] : undefined;
  const kept = history?.keptDist;
  const dist = `${path.basename(appDir(siteRoot, name))}/dist`;
  const { served } = releases;
  const since = (at) => at.slice(0, 16).replace('T', ' ');
  const head = served ? `${store ? 'shared pointer' : 'current'} ${served.version} since ${since(served.since)} UTC` : `no release yet: ${store ? `each instance serves its own ${dist}` : `${dist} is served`}`;
  console.log(`${name}: ${head} (${store ? 'PostgreSQL' : rel(appDir(siteRoot, name))})`);
  for (const release of releases.releases) {
    const notes = [
      release.current && 'current',
      release.version === below && `rollback target (npm run rollback -- ${name})`,
      release.version === kept && `${dist} as served before the first release`,
      release.staged && `staged: served to no one (npm run promote -- ${name} --version ${release.version})`,
    ].filter(Boolean);
    console.log(`${release.current ? '*' : ' '} ${release.version.padEnd(24)} ${since(release.createdAt)}  ${release.files} files  ${notes.join(', ')}`);
  }
  if (releases.releases.length === 0) console.log('  no releases yet');
}

/** --notes, --commit and --ci-url checked as the site checks an upload's (the contract's schema); undefined when none. */
export function provenanceOf(values) {
  const given = { notes: values.notes, commit: values.commit, ciUrl: values['ci-url'] };
  if (!Object.values(given).some((value) => value !== undefined)) return undefined;
  const parsed = server.releaseProvenanceSchema.safeParse(given);
  if (!parsed.success) throw new DeployError(parsed.error.issues.map((issue) => issue.message).join(' '));
  return parsed.data;
}

/**
 * `npm run deploy -- --all --key <file>` (issue 51): signs and deploys, on this machine, each app's build (shell first)
 * that the trusted keys leave without a signed release (every built app when RELEASE_TRUSTED_KEYS is not set here):
 * what to run before turning signing on, or when the server refused to start naming these apps.
 */
export async function deployAll(command, values, positionals) {
  if (command !== 'deploy' || positionals.length > 0 || /^https?:\/\//i.test(values.to ?? '')) {
    console.error(`--all deploys every built app on this machine: npm run deploy -- --all --key <operator key file>\n\n${USAGE}`);
    return 2;
  }
  const cwd = process.env.INIT_CWD || process.cwd();
  const siteRoot = path.resolve(cwd, process.env.SITE_ROOT || REPO_ROOT);
  try {
    if (!values.key && !process.env.RELEASE_SIGNING_KEY) throw new DeployError('--all signs what it deploys: --key <operator key file> (npm run release-key -- --app "*" --out <dir> makes one)');
    const { appsWithoutTrustedSignature } = server;
    const trusted = server.parseTrustedKeys(process.env.RELEASE_TRUSTED_KEYS);
    const apps = [];
    if (trusted.length > 0) apps.push(...(await appsWithoutTrustedSignature(siteRoot, trusted)).map((u) => u.app));
    else {
      for (const app of ['shell', ...REMOTES]) {
        const dist = path.join(appDir(siteRoot, app), 'dist');
        if ((app === 'shell' ? await server.checkShellRelease(dist) : await server.checkRelease(dist, app)).ok) apps.push(app);
      }
    }
    if (apps.length === 0) {
      console.log(trusted.length > 0 ? 'Every app with a release is signed by a key RELEASE_TRUSTED_KEYS trusts for it: nothing to deploy.' : 'No app is built here: nothing to deploy.');
      return 0;
    }
    console.log(`Signing and deploying ${apps.join(', ')} with ${values.key ? rel(path.resolve(cwd, values.key)) : 'RELEASE_SIGNING_KEY'}`);
    let failed = 0;
    for (const app of apps) {
      try {
        const signing = await readSigning(values.key ? path.resolve(cwd, values.key) : undefined, app);
        const from = path.join(appDir(siteRoot, app), 'dist');
        await logged('deploy', app, cwd, () => deploy({ name: app, siteRoot, from, skipLoadCheck: values['skip-load-check'], signing, allowDowngrade: values['allow-downgrade'] }));
      } catch (error) {
        if (!(error instanceof DeployError)) throw error;
        failed++;
        console.error(`✖ ${app}: ${error.message}`);
      }
    }
    return failed > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    console.error(`✖ ${error.message}`);
    return 1;
  }
}
