import { REMOTES } from './server.mjs';

export const USAGE = `Usage:
  npm run deploy -- <remote> --to <site URL> --token <deploy token> [--key <private key file>] [--from <dist folder>] [--version <name>] [--stage] [--allow-downgrade]
  npm run promote -- <remote> --version <staged version> --to <site URL> --token <deploy token> [--percent <1-100>] [--promote-after <time>] [--allow-downgrade]
  npm run rollback -- <remote> --to <site URL> --token <deploy token> [--version <name>]
  node scripts/deploy-remote.mjs list <remote> --to <site URL> --token <deploy token>
      over HTTP, from any clone (a team's CI): the site checks and switches it (DEPLOY_TOKEN may hold the token)
      with the options of the one-file tool the site serves at /site-deploy.mjs (node site-deploy.mjs --help): deploy's
      --dry-run, --notes, --commit and --ci-url, promote's --wait [--timeout <s>], and status <remote> [--json]
  npm run deploy -- <remote> [--from <dist folder>] [--version <name>] [--key <private key file>] [--skip-load-check] [--stage]
               [--notes <text>] [--commit <sha>] [--ci-url <url>]
  npm run promote -- <remote> --version <staged version>
  npm run rollback -- <remote> [--to <version>] [--skip-load-check]
  node scripts/deploy-remote.mjs list <remote>
  npm run deploy -- shell --from <shell dist>     npm run rollback -- shell
  npm run deploy -- --all --key <operator key file>
      signs and deploys, here, every built app that RELEASE_TRUSTED_KEYS leaves without a signed release (all built
      apps when it is not set): run it before turning signing on (docs/deploying-a-remote.md, "Signed releases")
<remote>: ${REMOTES.join(', ')}. SITE_ROOT (default: the repo) is where the server reads mfe-<remote>/.
Without --from, the remote is built in this clone first, and that build is deployed.
--key (or RELEASE_SIGNING_KEY, the PEM itself): the team's Ed25519 key (npm run release-key); the release is signed
with it. With RELEASE_TRUSTED_KEYS set (as the servers have it), a release it does not verify is refused here first.
APP_ROUTES_<APP> and RELEASE_MAX_ROUTES/_PAGES/_MANIFEST_KB (as the servers have them; docs/configuration.md) say
which routes each app owns and how much one release may carry: a release declaring a route outside its app's, or over
a limit, is refused here as the server refuses it (deploy, rollback and promote alike).
--stage: stored and checked the same, served to no one; the last line is its preview link (on this machine with the
site's PUBLIC_ORIGIN and PREVIEW_SECRET), which shows it to that browser only. npm run promote serves it to everyone;
with --percent 1-99, to that share of visitors as a canary (rolled back by itself if its error rate passes the threshold;
--promote-after <ISO time> serves it to everyone then; npm run rollback ends it). A canary is started on the running
site (--to), or here with DATABASE_URL on PostgreSQL.
--allow-downgrade: serve a version below the served one (semver; refused without it, recorded in the deploy log when
used). A rollback to a stored release needs no flag.`;
