import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { APP_NAMES } from '@site/contracts/app-names';
import { DeployToolError, isAppName, OVER_HTTP_COMMANDS, overHttpOptions, runOverHttp, type OverHttpCommand } from './deploy-over-http';

/*
 * site-deploy.mjs (issue 52): this file and what it imports, bundled into one ES module (api/build.mjs) that the site
 * serves at GET /site-deploy.mjs. A team's pipeline downloads it from the site it deploys to and runs it with Node 20 or
 * later, with nothing installed: `node site-deploy.mjs deploy blog --to https://example.com --token $DEPLOY_TOKEN`.
 * scripts/deploy-remote.mjs imports runOverHttp from the built file for `npm run deploy -- <app> --to <url>`.
 */

export { DeployToolError, overHttpOptions, runOverHttp, OVER_HTTP_COMMANDS } from './deploy-over-http';

const USAGE = `Usage: node site-deploy.mjs <command> <app> --to <site URL> --token <deploy token> [options]
  deploy <app> [--from <dir>] [--key <file>] [--version <v>] [--stage] [--dry-run] [--allow-downgrade]
               [--notes <text>] [--commit <sha>] [--ci-url <url>]
      checks, signs (--key) and uploads the built folder (default: ./dist); --stage stores it served to no one,
      --dry-run runs every check of the site and stores nothing
  promote <app> --version <v> [--percent <1-100>] [--promote-after <time>] [--allow-downgrade] [--wait [--timeout <s>]]
      serves a staged release to everyone, or to --percent of visitors as a canary; --promote-after: an ISO time
      (2026-11-28T09:00:00Z) or a delay (30m); --wait follows it: exit 0 once it is served to everyone, 1 when it is
      rolled back (with the reason) or after --timeout seconds (600)
  rollback <app> [--version <v>]     serves the release before again (or ends a running canary)
  status <app> [--json]              what is served, staged and in canary, with its error rates, and the deploy log
  list <app>                         the app's releases
<app>: ${APP_NAMES.join(', ')}.
Environment: DEPLOY_TOKEN (for --token), SITE_URL (for --to), RELEASE_SIGNING_KEY (for --key: the PEM itself or its file).
Exit codes: 0 done, 1 refused or failed (the reason is printed), 2 a wrong command line.`;

const COMMAND_LINE = `node site-deploy.mjs`;

export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env, cwd = process.cwd()): Promise<number> {
  const [command, ...rest] = argv;
  // Folders are read with readdir's recursive entries and their parentPath (Node 20.12).
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 12)) {
    console.error(`✖ site-deploy.mjs needs Node 20.12 or later; this is Node ${process.versions.node}`);
    return 1;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        to: { type: 'string' },
        token: { type: 'string' },
        from: { type: 'string' },
        key: { type: 'string' },
        version: { type: 'string' },
        stage: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        'allow-downgrade': { type: 'boolean' },
        notes: { type: 'string' },
        commit: { type: 'string' },
        'ci-url': { type: 'string' },
        percent: { type: 'string' },
        'promote-after': { type: 'string' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`✖ ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const app = positionals[0];
  const wrong = !(OVER_HTTP_COMMANDS as readonly string[]).includes(command ?? '')
    ? `Unknown command ${JSON.stringify(command ?? '')}.`
    : !isAppName(app)
      ? app === undefined
        ? 'Name the app.'
        : `Unknown app ${JSON.stringify(app)}.`
      : positionals.length > 1
        ? `One app at a time (got ${positionals.join(' ')}).`
        : !(values.to || env.SITE_URL)
          ? "Name the site: --to <site URL> (or SITE_URL), e.g. --to https://example.com."
          : undefined;
  if (wrong || !isAppName(app)) {
    console.error(`✖ ${wrong}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await runOverHttp(
      command as OverHttpCommand,
      app,
      overHttpOptions(values, {
        to: (values.to || env.SITE_URL)!,
        from: path.resolve(cwd, values.from ?? 'dist'),
        key: values.key ? path.resolve(cwd, values.key) : undefined,
      }),
      {
        env,
        cwd,
        out: (line) => console.log(line),
        hint: (next, name, args) => `${COMMAND_LINE} ${next} ${name} ${args}`,
      },
    );
  } catch (error) {
    if (!(error instanceof DeployToolError)) throw error;
    console.error(`✖ ${error.message}`);
    return 1;
  }
}

/** Run as a program (`node site-deploy.mjs …`), not imported (scripts/deploy-remote.mjs imports runOverHttp). */
function isProgram(): boolean {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]!) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// Exits explicitly: an idle connection kept by fetch must not hold a pipeline's step open.
if (isProgram()) process.exit(await main(process.argv.slice(2)));
