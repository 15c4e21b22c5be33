import { z } from 'zod';
import { APP_NAMES } from '@site/contracts/deploys';
import { defineEndpoints } from '../http/endpoint';
import { matchesIfNoneMatch } from '../lib/etag';
import { NotFoundError } from '../lib/domain-errors';
import { SITE_DEPLOY_PATH, siteDeployTool } from '../site/static/site-deploy-tool';

/*
 * GET /site-deploy.mjs (issue 52): the one-file deploy tool, served by the site it deploys to so that a pipeline runs
 * the version that matches it. An endpoint (not a static file of the site) so the API description tells a CI engineer
 * it exists and how to run it, beside the release endpoints it calls.
 */

export const siteDeployRoutes = defineEndpoints({ context: ['logger'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: SITE_DEPLOY_PATH,
    tag: 'Releases',
    summary: 'The one-file deploy tool: deploy, promote (and wait for the canary), roll back, status, with nothing installed',
    description: [
      'One ES module with its dependencies bundled, built from the same code as `npm run deploy` and the release endpoints it calls: download it from the site you deploy to and run it with Node 20.12 or later.',
      '`curl -fsSO https://<site>/site-deploy.mjs && node site-deploy.mjs deploy blog --to https://<site> --token "$DEPLOY_TOKEN" --from mfe-blog/dist [--key release-key.pem] [--stage] [--dry-run] [--notes <text>] [--commit <sha>] [--ci-url <url>]`;',
      '`promote <app> --version <v> [--percent <1-100>] [--promote-after <time>] [--wait [--timeout <s>]]` (with `--wait`: exit 0 once served to everyone, 1 with the reason when the canary is rolled back or on timeout); `rollback <app> [--version <v>]`; `status <app> [--json]`; `list <app>`; `--help` lists every option.',
      `<app> is one of ${APP_NAMES.join(', ')}. The token and signing key may come from DEPLOY_TOKEN and RELEASE_SIGNING_KEY (the PEM or its file), the site from SITE_URL. Exit codes: 0 done, 1 refused or failed (the reason printed), 2 a wrong command line.`,
      'Always revalidated (`Cache-Control: no-cache`, a strong `ETag`): a pipeline that keeps a copy gets 304 while the site serves the same tool. A build without it answers 404.',
    ].join(' '),
    cacheControl: 'no-cache',
    responses: {
      200: {
        description: 'The tool, an ES module (text/javascript).',
        body: { schema: z.string().meta({ description: 'An ES module to run with `node site-deploy.mjs <command> …`' }), contentType: 'text/javascript' },
        headers: { ETag: 'A strong validator of the tool (the hash of its bytes).' },
      },
      304: { description: 'The tool has not changed since the copy whose ETag was sent in If-None-Match.' },
    },
    async handle(_input, { logger }, ctx) {
      const tool = await siteDeployTool().catch((error: unknown) => {
        logger.error({ err: error }, 'site-deploy.mjs could not be built');
        return null;
      });
      if (!tool) throw new NotFoundError('site-deploy.mjs is not part of this build.');
      ctx.set('ETag', tool.etag);
      ctx.type = 'text/javascript; charset=utf-8';
      if (matchesIfNoneMatch(ctx.get('If-None-Match'), tool.etag)) {
        ctx.status = 304;
        return undefined;
      }
      return tool.body;
    },
  }),
]);
