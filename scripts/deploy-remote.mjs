#!/usr/bin/env node
// Deploys one app (a remote or the shell) as a versioned release, or rolls it back:
//   npm run deploy -- blog [--from mfe-blog/dist] [--version X]      on this machine's SITE_ROOT (default: this repo),
//   npm run rollback -- blog [--to X]                                 or, with DATABASE_URL on PostgreSQL, the shared
//   node scripts/deploy-remote.mjs list blog                          release store of every instance
//   npm run deploy -- blog --to <site URL> --token <token>            over HTTP, from any clone (a team's CI)
//
// On this machine it runs the server's own deployer (api/src/site/releases/release-deployer.ts, imported built as
// api/dist/release-deployer.js), the one implementation of deploy and rollback that POST /api/releases/{app} and the
// first start's import of the builds use too: the same checks (the release format, the routes and limits of
// APP_ROUTES_<APP> and RELEASE_MAX_*, fit with the serving shell, the signature with RELEASE_TRUSTED_KEYS, the server
// module loading), the same layout and lock, with its two backends:
//   SITE_ROOT (one instance; lock file mfe-<name>/.deploy.lock):
//     mfe-<name>/releases/<version>/   a full dist; never changed after it is renamed into place
//     mfe-<name>/current               one line, the served version; replaced by write-temp-then-rename
//     mfe-<name>/history.json          { stack: versions deployed, oldest first (rollback pops), keptDist, builds }
//   PostgreSQL (every instance; an advisory lock per app): the release store (releases-repository.ts), each instance
//     copying the pointer's release into its own SITE_ROOT when told (release-sync.ts).
// A release is checked in a hidden folder before anything is switched, and history is written before the pointer.
// What happened goes to the site's deploy log (the admin's Deploys screen), the one log, as for a deploy over HTTP.
// The first deploy of an app whose built dist was served (no release yet) keeps that dist as releases/<version>+dist/,
// below the new release, so the first rollback returns to exactly what was served.
// This script reads the command line, builds or reads the dist, signs it (--key) and prints what happened.
// The commands live in scripts/deploy/: common.mjs, server.mjs (the server bundle), local-deployer.mjs, local-commands.mjs,
// over-http.mjs and usage.mjs.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runOnNode24 } from './node24.mjs';

// Runs on Node 24, like the server whose deployer it uses: an older Node fetches it once and runs this script under it.
await runOnNode24(import.meta.url);

// Imported only now: loading the server bundle needs Node 24.
const { buildHere, DeployError, isPostgres, REPO_ROOT } = await import('./deploy/common.mjs');
const { REMOTES } = await import('./deploy/server.mjs');
const { USAGE } = await import('./deploy/usage.mjs');
const { logged, openStore, readSigning } = await import('./deploy/local-deployer.mjs');
const { deploy, deployAll, list, percentOf, promote, provenanceOf, rollback } = await import('./deploy/local-commands.mjs');
const { overHttp } = await import('./deploy/over-http.mjs');

async function main(argv) {
  const [command, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        version: { type: 'string' },
        to: { type: 'string' },
        key: { type: 'string' },
        token: { type: 'string' },
        'skip-load-check': { type: 'boolean' },
        stage: { type: 'boolean' },
        percent: { type: 'string' },
        'promote-after': { type: 'string' },
        'allow-downgrade': { type: 'boolean' },
        all: { type: 'boolean' },
        // Here too: where the release came from, in the site's deploy log.
        notes: { type: 'string' },
        commit: { type: 'string' },
        'ci-url': { type: 'string' },
        // Over HTTP only (--to <site URL>): what the one-file tool takes (api/src/site/releases/site-deploy-cli.ts).
        'dry-run': { type: 'boolean' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const name = positionals[0];
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.all) return deployAll(command, values, positionals);
  const isShell = name === 'shell';
  const overHttpOnly = command === 'status' && /^https?:\/\//i.test(values.to ?? '');
  if (!(['deploy', 'rollback', 'promote', 'list'].includes(command) || overHttpOnly) || !(REMOTES.includes(name) || isShell) || positionals.length > 1) {
    console.error(`${name && !REMOTES.includes(name) ? `Unknown remote ${JSON.stringify(name)}.\n` : ''}${USAGE}`);
    return 2;
  }
  // npm runs scripts from the repo root; paths on the command line are relative to where it was typed.
  const cwd = process.env.INIT_CWD || process.cwd();
  // --to <site URL>: over HTTP, with a deploy token (rollback's --to <version> is --version there).
  if (/^https?:\/\//i.test(values.to ?? '')) {
    try {
      return await overHttp(command, name, { ...values, cwd });
    } catch (error) {
      if (!(error instanceof DeployError)) throw error;
      console.error(`✖ ${error.message}`);
      return 1;
    }
  }
  const siteRoot = path.resolve(cwd, process.env.SITE_ROOT || REPO_ROOT);
  // DATABASE_URL on PostgreSQL (as the server is given): the release goes to every instance through the database.
  const store = isPostgres(process.env.DATABASE_URL) ? await openStore(process.env.DATABASE_URL) : undefined;
  try {
    const signing = command === 'deploy' ? await readSigning(values.key ? path.resolve(cwd, values.key) : undefined, name) : undefined;
    const options = { name, siteRoot, skipLoadCheck: values['skip-load-check'], store, signing, allowDowngrade: values['allow-downgrade'] };
    if (command === 'list') {
      await list(options);
      return 0;
    }
    // Written to the site's deploy log as it happens, like a deploy over HTTP (the admin dashboard shows it).
    return await logged(
      command,
      name,
      cwd,
      async () => {
        if (command === 'deploy') {
          // Without --from: the shell's dist as built in this clone; a remote is built here first.
          const from = values.from ? path.resolve(cwd, values.from) : isShell ? path.join(REPO_ROOT, 'shell', 'dist') : buildHere(name);
          return deploy({ ...options, from, version: values.version, stage: values.stage, provenance: provenanceOf(values) });
        }
        if (command === 'promote') return promote({ ...options, version: values.version, percent: percentOf(values.percent), promoteAfter: values['promote-after'] });
        return rollback({ ...options, to: values.to });
      },
      command === 'deploy' && values.stage ? 'stage' : command === 'promote' && values.percent !== undefined && Number(values.percent) < 100 ? 'canary' : command,
    );
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    console.error(`✖ ${error.message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

// Exit explicitly: an imported server module may leave timers or handles behind.
process.exit(await main(process.argv.slice(2)));
