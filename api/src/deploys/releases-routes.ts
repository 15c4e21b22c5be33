import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { APP_NAMES, appReleasesSchema, appStatusSchema, PREVIEW_LINK_HOURS, promoteRequestSchema, releaseChangeSchema, releaseProvenanceSchema, rollbackRequestSchema, type AppName } from '@site/contracts/deploys';
import { devOverrideCreatedSchema, devOverrideEntryIsLoopback, devOverrideRequestSchema, DEV_OVERRIDE_DEFAULT_HOURS, DEV_OVERRIDE_MESSAGES } from '@site/contracts/deploys';
import { InvalidInputError, NotFoundError } from '../lib/domain-errors';
import { defineEndpoints, type RateLimitRule } from '../http/endpoint';
import { appStatus } from './app-status';
import { error, errorResponse } from '../http/openapi-parts';
import { PROMOTE_400, PROMOTE_404, PROMOTE_409, RELEASE_ARCHIVE_NOTE, RELEASE_SIGNATURE_NOTE, RELEASE_UPLOAD_MAX_BYTES, ROLLBACK_400, ROLLBACK_404, ROLLBACK_409, UPLOAD_400, UPLOAD_409, UPLOAD_413 } from '../http/openapi-releases';
import { RefusedError } from '../lib/domain-errors';
import { RELEASE_NAME } from '../site/releases/release-format';
import { TarballError, readReleaseTarball } from '../site/releases/release-tarball';

/*
 * Deploys over HTTP (issue 33): a team's CI sends its built app as a .tar.gz with a deploy token, and the server checks
 * and switches it (site/releases/release-deployer.ts) on this instance's store: SITE_ROOT alone on SQLite, the shared
 * store (every instance within seconds) on PostgreSQL. Every outcome, a bad or wrong token included, is in the deploy
 * log as it happens, and a refusal raises the owner's alert.
 */

const APP = { app: { description: `The app: ${APP_NAMES.join(', ')}.`, example: 'blog', schema: z.enum(APP_NAMES) } };
/** Per client: a CI deploys a few times an hour; a token guesser is stopped after a few tries. */
const RELEASES_LIMIT: RateLimitRule = { windowMs: 60_000, max: 30, keyPrefix: 'releases', message: 'Too many release requests. Please retry in a minute.' };
/** The status has its own budget: `promote --wait` polls it every 2 s, and several pipelines may share a runner's address. */
const STATUS_LIMIT: RateLimitRule = { windowMs: 60_000, max: 120, keyPrefix: 'releases-status', message: 'Too many status requests. Please retry in a minute.' };
/**
 * Only bad tokens count (401, 403): a release refused for what it holds (400, 409, 413) comes from a caller with a
 * valid token, and locking its address out would stop every team deploying from the same CI runners.
 */
const TOKEN_FAILURES_LIMIT: RateLimitRule = {
  windowMs: 15 * 60_000,
  max: 10,
  keyPrefix: 'releases-auth',
  count: 'denied',
  message:
    'Too many requests from this address with a missing, unknown, revoked or wrong-app deploy token (answered 401 or 403) within 15 minutes. Refused releases do not count. Please retry later.',
};

/** The caller's address (TRUST_PROXY decides whether X-Forwarded-For counts, as for the rate limits). */
const addressOf = (ctx: Context) => ctx.ip;


/** Checks the token for `app`; a refusal is written to the deploy log before it is answered. */
async function authorise(
  services: { deployTokens: { authenticate(input: { authorization: string | undefined; app: AppName; from: string }): Promise<{ name: string }> }; deployLog: { record(entry: never): Promise<unknown> } },
  ctx: Context,
  app: AppName,
  action: 'deploy' | 'rollback' | 'stage' | 'promote' | 'canary' | null,
): Promise<{ by: string; from: string }> {
  const from = addressOf(ctx);
  try {
    const token = await services.deployTokens.authenticate({ authorization: ctx.get('Authorization') || undefined, app, from });
    return { by: token.name, from };
  } catch (failure) {
    if (action) {
      const message = failure instanceof Error ? failure.message : String(failure);
      const tokenName = (failure as { tokenName?: unknown }).tokenName;
      const by = typeof tokenName === 'string' ? tokenName : 'a bad deploy token';
      await (services.deployLog.record as (entry: unknown) => Promise<unknown>)({ app, action, version: null, previous: null, result: 'refused', by, from, message }).catch(() => undefined);
    }
    throw failure;
  }
}

/** What `GET /api/releases/{app}/status` answers while a canary runs, for the API reference. */
const APP_STATUS_EXAMPLE: z.input<typeof appStatusSchema> = {
  app: 'blog',
  served: { version: '1.3.2', since: '2026-11-27T09:58:10.000Z', by: 'blog CI', notes: 'Faster search', commit: '3f2a9c1', ciUrl: 'https://ci.example.com/blog/runs/812' },
  staged: [{ version: '1.4.0', createdAt: '2026-11-27T10:10:41.000Z', by: 'blog CI', notes: null, commit: '9b1e0d4', ciUrl: null }],
  canary: {
    version: '1.4.0',
    current: '1.3.2',
    percent: 10,
    startedAt: '2026-11-27T10:12:03.000Z',
    promoteAfter: '2026-11-27T11:12:03.000Z',
    pageViews: 118,
    errors: 1,
    errorRate: 0.0085,
    servedPageViews: 1043,
    servedErrors: 2,
    servedErrorRate: 0.0019,
  },
  log: [
    {
      action: 'canary',
      version: '1.4.0',
      previous: '1.3.2',
      at: '2026-11-27T10:12:03.000Z',
      result: 'ok',
      reason: 'serves 1.4.0 to 10% of visitors (sticky per visitor); the others keep 1.3.2',
      by: 'blog CI',
      notes: null,
      commit: '9b1e0d4',
      ciUrl: null,
    },
  ],
};

export const releasesRoutes = defineEndpoints({ services: ['deployTokens', 'releases', 'deployLog', 'canaries'], context: ['rateLimits', 'devOverrides'], config: ['rateLimitMultiplier', 'bodyLimit'] }, (endpoint) => {
  return [
    endpoint({
      method: 'post',
      path: '/api/releases/:app',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: "Deploy an app's build: the body is its built folder as a .tar.gz (signed when the server trusts keys)",
      description: [
        "The body is the app's built output (the folder `npm run build` writes, with `release-signature.json` when signed by `npm run deploy -- <app> --key`) as a gzip-compressed tar archive.",
        '`GET /site-deploy.mjs` does all of this (`node site-deploy.mjs deploy <app> --to <site URL> --token <token> --from <built folder> [--key <file>]`); what it sends is described here.',
        RELEASE_ARCHIVE_NOTE,
        'Then checked as the server will serve it (format, fit with the serving shell, the signature when RELEASE_TRUSTED_KEYS is set, its server module loading) and only then switched: every instance serves it within seconds.',
        "Before it is stored, staged or not, every page it declares is rendered on a worker thread with the site's data (a route's parameter filled from it, e.g. the newest post's slug): a page that throws, or a release not rendered within RELEASE_SMOKE_RENDER_TIMEOUT_MS (10 s), is refused with 400 `smoke_render_failed` (`smoke render of /blog failed: TypeError: …`).",
        'The release is named `?version=`, else the version it was signed as, else its manifest version (made unique with +2, +3…).',
        'A version below the served one (semver precedence, build metadata ignored) is refused (409 `downgrade_refused`) unless `?allowDowngrade=1`, which the deploy log records; a rollback to a stored release needs no flag.',
        `With \`?stage=1\` it is stored and checked the same way but served to no one: the answer's \`previewUrl\` opens the site with it for that browser only (a signed link, valid ${PREVIEW_LINK_HOURS} hours), and \`POST /api/releases/{app}/promote\` serves it to everyone.`,
        RELEASE_SIGNATURE_NOTE,
      ].join(' '),
      params: APP,
      query: {
        schema: z.object({
          version: z.string().regex(RELEASE_NAME, 'A release name: letters, digits, . _ + - (not first), at most 100 characters.').optional(),
          stage: z.enum(['1', 'true'], { message: 'stage is 1 (or true) to upload the release staged; leave it out to serve it.' }).optional().describe('1: store and check it, serve it to no one (a preview link shows it)'),
          allowDowngrade: z
            .enum(['1', 'true'], { message: 'allowDowngrade is 1 (or true) to serve a version below the served one; leave it out otherwise.' })
            .optional()
            .describe('1: serve it even though its version is below the served one (semver); the deploy log records the downgrade'),
          dryRun: z
            .enum(['1', 'true'], { message: 'dryRun is 1 (or true) to run every check and store nothing; leave it out to deploy.' })
            .optional()
            .describe('1: run every check of a deploy (with `stage=1`, of a staged upload), smoke render included, and store nothing: answered 200, nothing in the release list or the deploy log, the name stays free'),
        }).extend(releaseProvenanceSchema.shape),
      },
      rateLimits: [RELEASES_LIMIT, TOKEN_FAILURES_LIMIT],
      body: {
        kind: 'stream',
        maxBytes: RELEASE_UPLOAD_MAX_BYTES,
        // Bytes (`format: binary`): a generated client takes a Blob.
        schema: z.string().meta({ format: 'binary', contentMediaType: 'application/gzip', description: "The built folder as a .tar.gz, its files at the archive's root" }),
        contentType: 'application/gzip',
      },
      responses: {
        201: {
          description: 'Checked and served (or, with `?stage=1`, checked and stored staged, with its `previewUrl`): the release, what is or was served before and what was checked.',
          body: { schema: releaseChangeSchema, example: { app: 'blog', version: '1.4.0', previous: '1.3.2', checked: ['mfe-manifest.json (blog 1.4.0)', 'assets/remoteEntry.js'] } },
        },
        200: {
          description: 'With `?dryRun=1`: every check passed and nothing was stored; `version` is the name it would be deployed under (still free).',
          body: { schema: releaseChangeSchema, example: { app: 'blog', version: '1.4.0', previous: '1.3.2', checked: ['mfe-manifest.json (blog 1.4.0)', 'assets/remoteEntry.js'], dryRun: true } },
        },
        400: UPLOAD_400,
        409: UPLOAD_409,
        413: UPLOAD_413,
      },
      async handle({ params, query, body }, { services }, ctx) {
        const stage = query.stage !== undefined;
        const dryRun = query.dryRun !== undefined;
        const actor = await authorise(services as never, ctx, params.app, stage ? 'stage' : 'deploy');
        // Two success statuses: 201 stored, 200 checked only.
        ctx.status = dryRun ? 200 : 201;
        const app = params.app;
        let files: Map<string, Buffer>;
        try {
          files = await readReleaseTarball(body as Readable);
        } catch (failure) {
          if (!(failure instanceof TarballError)) throw failure;
          // Recorded and alerted like any refusal (the deployer's), with nothing written.
          // A dry run is told the same, with nothing recorded.
          if (dryRun) throw new RefusedError(`the archive was refused: ${failure.message}`, { code: 'release_refused' });
          return services.releases.refuse(app, actor, `the archive was refused: ${failure.message}`);
        }
        const provenance = { ...(query.notes ? { notes: query.notes } : {}), ...(query.commit ? { commit: query.commit } : {}), ...(query.ciUrl ? { ciUrl: query.ciUrl } : {}) };
        return services.releases.deploy(app, files, actor, { version: query.version, stage, allowDowngrade: query.allowDowngrade !== undefined, dryRun, provenance });
      },
    }),
    endpoint({
      method: 'get',
      path: '/api/releases/:app',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: "An app's releases: which is served, since when, and who deployed each",
      params: APP,
      rateLimits: [RELEASES_LIMIT, TOKEN_FAILURES_LIMIT],
      responses: { 200: { description: 'The releases, newest first.', body: { schema: appReleasesSchema } } },
      async handle({ params }, { services }, ctx) {
        await authorise(services as never, ctx, params.app, null);
        return services.releases.list(params.app);
      },
    }),
    endpoint({
      method: 'get',
      path: '/api/releases/:app/status',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: "An app's status for its team: the served and staged releases, the canary with its error rates, and the app's last 20 deploy log entries",
      description: [
        "With the app's deploy token (the admin's Deploys screen shows the same for every app).",
        '`canary` is the canary running now (null when none): its share of visitors, when it is served to everyone by itself, and both releases\' page views, errors and error rate since it started, counted as the automatic rollback counts them.',
        "`log` is the app's last 20 deploy log entries, newest first, with each one's `reason` (why it was refused, failed or rolled back) and where the release came from (`notes`, `commit`, `ciUrl` of its upload).",
        'A canary ends either way in the log: `promote` of its version (served to everyone) or `canary_rollback` (rolled back, with the reason). `node site-deploy.mjs promote … --wait` polls this.',
      ].join(' '),
      params: APP,
      rateLimits: [STATUS_LIMIT, TOKEN_FAILURES_LIMIT],
      cacheControl: 'no-store',
      responses: {
        200: {
          description: 'The app as it is now.',
          body: {
            schema: appStatusSchema,
            example: APP_STATUS_EXAMPLE,
          },
        },
      },
      async handle({ params }, { services }, ctx) {
        await authorise(services as never, ctx, params.app, null);
        return appStatus(params.app, services);
      },
    }),
    endpoint({
      method: 'post',
      path: '/api/releases/:app/rollback',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: 'Serve an earlier release again: `version`, else the one below the served release; with a canary running and no `version`, end the canary',
      description:
        'While a canary runs (a staged release served to a share of visitors), a rollback without `version` ends it: everyone gets the served release again, and the deploy log records `canary_rollback`. With `version`, the canary ends with the rollback.',
      params: APP,
      rateLimits: [RELEASES_LIMIT, TOKEN_FAILURES_LIMIT],
      body: { schema: rollbackRequestSchema, example: { version: '1.3.2' } },
      responses: {
        200: { description: 'Served again.', body: { schema: releaseChangeSchema } },
        400: ROLLBACK_400,
        404: ROLLBACK_404,
        409: ROLLBACK_409,
      },
      async handle({ params, body }, { services }, ctx) {
        const actor = await authorise(services as never, ctx, params.app, 'rollback');
        return services.releases.rollback(params.app, actor, { version: body.version });
      },
    }),
    endpoint({
      method: 'post',
      path: '/api/releases/:app/promote',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: 'Serve a staged release to everyone, or as a canary to a share of visitors (`percent`)',
      description: [
        'The release uploaded with `?stage=1` named by `version` is checked again as it will be served now (the shell and the trusted keys may have changed since); a version below the served one (semver) needs `allowDowngrade: true`, which the deploy log records.',
        'Without `percent` (or with 100) it becomes the served one on every instance: a rollback returns to the release served before it.',
        'With `percent` from 1 to 99 it is a **canary**: that share of visitors gets it, sticky per visitor (a `site_bucket` cookie; the same release on every page, on the next visit and from every instance), the others keep the served release. While it runs its error rate is compared with the served release\'s: past the threshold (RELEASE_CANARY_MAX_RATE_PERCENT, RELEASE_CANARY_RATIO, RELEASE_CANARY_MIN_VIEWS) it is rolled back by itself, with a `canary_rollback` entry in the deploy log and an alert.',
        'Promoting the canary\'s release again changes its share, or serves it to everyone; `promoteAfter` serves it to everyone at that time unless it was rolled back before. One canary per app: another answers 409 `canary_running`, as does a deploy of the app while one runs (POST /api/releases/{app}/rollback ends it). The shell is served to everyone or no one.',
      ].join(' '),
      params: APP,
      rateLimits: [RELEASES_LIMIT, TOKEN_FAILURES_LIMIT],
      body: { schema: promoteRequestSchema, example: { version: '1.4.0', percent: 10 } },
      responses: {
        200: {
          description: 'Served to everyone, or with `percent`, to that share of visitors as a canary (the others keep `previous`).',
          body: { schema: releaseChangeSchema, example: { app: 'blog', version: '1.4.0', previous: '1.3.2', checked: ['mfe-manifest.json (blog 1.4.0)', 'assets/remoteEntry.js'], percent: 10 } },
        },
        400: PROMOTE_400,
        404: PROMOTE_404,
        409: PROMOTE_409,
      },
      async handle({ params, body }, { services }, ctx) {
        const actor = await authorise(services as never, ctx, params.app, body.percent !== undefined && body.percent < 100 ? 'canary' : 'promote');
        return services.releases.promote(params.app, actor, {
          version: body.version,
          ...(body.percent !== undefined ? { percent: body.percent } : {}),
          ...(body.promoteAfter ? { promoteAfter: body.promoteAfter } : {}),
          ...(body.allowDowngrade ? { allowDowngrade: true } : {}),
        });
      },
    }),
    endpoint({
      method: 'post',
      path: '/api/releases/:app/dev-override',
      tag: 'Releases',
      auth: 'deploy-token',
      summary: "Local development against the live site: a link that makes one browser load the app from the developer's own server",
      description: [
        "With the app's deploy token, for a remote (not the shell, nor the admin). `entryUrl` is the remote's `remoteEntry.js` as the developer's server serves it: https, or http on this computer (localhost, 127.0.0.1, [::1]); anything else is refused with 400 `validation_failed` naming the rule it breaks.",
        "When the site takes only signed releases (RELEASE_TRUSTED_KEYS is set), only an entry on the developer's own computer (localhost, 127.0.0.1, [::1]) is accepted: an https URL elsewhere answers 400 `dev_override_refused`, since its code would run on the site's origin unsigned.",
        "The answer's `url` opens a confirmation page on the site (no-store, never indexed, never framed) that says which app's code would run from which origin, and until when. Its **Turn on** button (a same-origin POST of the same address; a POST from another origin answers 403) sets the cookie; its Cancel link sets nothing. A browser with an admin session cookie is told to log out of the admin first: the admin's pages, and every page of a browser with a live admin session, never run an override.",
        `Turned on, the browser holds a signed cookie (HttpOnly, SameSite=Lax, valid DEV_OVERRIDE_HOURS, ${DEV_OVERRIDE_DEFAULT_HOURS} by default). With it, that browser's remotes map names \`entryUrl\` for the app, its pages allow \`entryUrl\`'s origin in their Content-Security-Policy (script, style, font, image and connect sources), the app's pages are rendered in the browser (the server never runs that code), and a banner on every page says so with a link that leaves the override (\`?dev-override=off\`).`,
        "Other browsers, the render cache and the app's release counts are untouched: such pages are `Cache-Control: private`, never kept, never indexed.",
        "The developer's server must answer the site's origin with `Access-Control-Allow-Origin` (the remote entry and its chunks are module scripts) and serve the build under the same paths as the site (`/mfe/<app>/assets/…`). `npm run dev -- <app> --against <site> --token <t>` does all of it.",
      ].join(' '),
      params: APP,
      rateLimits: [RELEASES_LIMIT, TOKEN_FAILURES_LIMIT],
      body: { schema: devOverrideRequestSchema, example: { entryUrl: 'http://localhost:5174/mfe/blog/assets/remoteEntry.js' } },
      responses: {
        201: {
          description: 'The link, for one browser: open it there and press Turn on.',
          body: {
            schema: devOverrideCreatedSchema,
            example: { url: 'https://example.com/blog?dev-override=eyJhIjoiYmxvZyJ9.c2lnbmF0dXJl', app: 'blog', entryUrl: 'http://localhost:5174/mfe/blog/assets/remoteEntry.js', expiresAt: '2026-11-27T18:12:03.000Z' },
          },
        },
        400: errorResponse(
          `The entry URL is not a URL, is plain http on another host or carries a user name or password (\`validation_failed\`, as in the example); or \`dev_override_refused\`: the app is the shell ("${DEV_OVERRIDE_MESSAGES.shell}") or the admin ("${DEV_OVERRIDE_MESSAGES.admin}"), or the site takes only signed releases and the entry is not on loopback ("${DEV_OVERRIDE_MESSAGES.signed}").`,
          error('validation_failed', `entryUrl: ${DEV_OVERRIDE_MESSAGES.protocol}`, [{ path: 'entryUrl', message: DEV_OVERRIDE_MESSAGES.protocol }]),
        ),
      },
      async handle({ params, body }, { services, devOverrides }, ctx) {
        await authorise(services as never, ctx, params.app, null);
        if (!devOverrides) throw new NotFoundError('Development overrides are not available on this server.');
        if (params.app === 'shell') throw new InvalidInputError(DEV_OVERRIDE_MESSAGES.shell, { code: 'dev_override_refused' });
        if (params.app === 'admin') throw new InvalidInputError(DEV_OVERRIDE_MESSAGES.admin, { code: 'dev_override_refused' });
        // Signed releases only: code from an https origin would run on the site's origin without any signature.
        if (devOverrides.loopbackOnly && !devOverrideEntryIsLoopback(body.entryUrl)) throw new InvalidInputError(DEV_OVERRIDE_MESSAGES.signed, { code: 'dev_override_refused' });
        const { url, expiresAt } = await devOverrides.link(params.app, body.entryUrl);
        return { url, app: params.app, entryUrl: body.entryUrl, expiresAt: expiresAt.toISOString() };
      },
    }),
  ];
});
