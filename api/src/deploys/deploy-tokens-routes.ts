import {
  DEPLOY_MESSAGES,
  deployLogPageSchema,
  deployLogQuerySchema,
  deployTokenCreatedSchema,
  deployTokenCreateSchema,
  deployTokenListSchema,
} from '@site/contracts/deploys';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import { INVALID_DEPLOY_CURSOR } from './deploy-log';

const TOKEN_ID = { id: { description: 'The deploy token id.', example: 'dtk_5d2f0c1a9b8e7d6c' } };
const TOKEN_NOT_FOUND = errorResponse('No live deploy token has this id.', error('deploy_token_not_found', DEPLOY_MESSAGES.notFound));

/**
 * Deploys in the admin panel (the Deploys screen, issue 33): the deploy tokens a team's CI deploys with (the token is
 * in the answer that created it, and nowhere after), and the deploy log, newest first.
 */
export const adminDeploysRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['deployTokens', 'deployLog', 'admin', 'releases', 'canaries'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/admin/deploy-tokens',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The live deploy tokens, newest first (never the tokens themselves)',
    responses: {
      200: {
        description: 'The tokens.',
        body: {
          schema: deployTokenListSchema,
          example: {
            tokens: [{ id: 'dtk_5d2f0c1a9b8e7d6c', name: 'blog CI', apps: ['blog'], createdAt: '2026-11-27T09:00:00.000Z', lastUsedAt: '2026-11-27T10:12:03.000Z', lastUsedFrom: '203.0.113.7' }],
          },
        },
      },
    },
    handle: (_input, { services }) => services.deployTokens.list(),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/deploy-tokens',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Issue a deploy token for some apps; the answer shows the token once',
    body: { schema: deployTokenCreateSchema, example: { name: 'blog CI', apps: ['blog'] } },
    responses: {
      201: {
        description: 'Issued, with `token` (stored hashed: it is never shown again).',
        body: {
          schema: deployTokenCreatedSchema,
          example: {
            id: 'dtk_5d2f0c1a9b8e7d6c',
            name: 'blog CI',
            apps: ['blog'],
            createdAt: '2026-11-27T09:00:00.000Z',
            lastUsedAt: null,
            lastUsedFrom: null,
            token: 'dpl_q5Jx0m8Yw3n1Vb7cTz2Lr6Kd9Hs4Fg0Ae5Pu8Wo1Xi3',
          },
        },
      },
      400: errorResponse('A bad field.', error('validation_failed', `Validation failed: apps: ${DEPLOY_MESSAGES.apps}`, [{ path: 'apps', message: DEPLOY_MESSAGES.apps }])),
      409: errorResponse('The site has as many deploy tokens as it may have: revoke one first.', error('deploy_token_limit', DEPLOY_MESSAGES.tooMany)),
    },
    handle: ({ body }, { services }) => services.deployTokens.create(body),
  }),
  endpoint({
    method: 'delete',
    path: '/api/admin/deploy-tokens/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Revoke a deploy token: it deploys nothing from now on',
    params: TOKEN_ID,
    responses: { 204: { description: 'Revoked.' }, 404: TOKEN_NOT_FOUND },
    handle: async ({ params }, { services }) => {
      await services.deployTokens.revoke(params.id);
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/deploys',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The deploy log: every deploy, staged upload, promotion, canary, rollback and refusal, newest first, a page at a time; with the canaries running now',
    description: [
      'A staged release that is still staged comes with a fresh `previewUrl` (PREVIEW_LINK_HOURS), which opens the site with it for that browser only.',
      'The first page (no `cursor`) also carries `canaries`: each canary running now with its share of visitors and both releases’ page views, errors and error rate since it started (every instance added up), and `canaryRules`, when one is rolled back by itself. The rates count server render errors, and browser errors only once at least `canaryRules.minReporters` distinct visitors (`clientReporters`) reported them.',
    ].join(' '),
    query: { schema: deployLogQuerySchema, emptyAsAbsent: true },
    responses: {
      200: {
        description: 'A page of the log; `nextCursor` asks for the next one (null on the last).',
        body: {
          schema: deployLogPageSchema,
          example: {
            entries: [
              {
                id: 'dep_0f1e2d3c4b5a6978',
                at: '2026-11-27T10:12:03.000Z',
                app: 'blog',
                action: 'deploy',
                version: '2026.11.27-1',
                previous: '2026.11.26-3',
                result: 'ok',
                by: 'blog CI',
                from: '203.0.113.7',
                message: null,
              },
              {
                id: 'dep_0f1e2d3c4b5a6977',
                at: '2026-11-27T10:02:41.000Z',
                app: 'blog',
                action: 'canary',
                version: '2026.11.27-1',
                previous: '2026.11.26-3',
                result: 'ok',
                by: 'blog CI',
                from: '203.0.113.7',
                message: 'serves 2026.11.27-1 to 10% of visitors (sticky per visitor); the others keep 2026.11.26-3',
                previewUrl: 'https://www.example.com/blog?preview=eyJhIjoiYmxvZyJ9.c2lnbmF0dXJl',
              },
            ],
            nextCursor: null,
            canaries: [
              {
                app: 'blog',
                version: '2026.11.27-1',
                current: '2026.11.26-3',
                percent: 10,
                startedAt: '2026-11-27T10:02:41.000Z',
                promoteAfter: null,
                by: 'blog CI',
                countedSince: '2026-11-27T10:02:00.000Z',
                canary: { pageViews: 118, renderErrors: 1, clientErrors: 1, clientReporters: 1, rate: 0.0085 },
                served: { pageViews: 1042, renderErrors: 1, clientErrors: 6, clientReporters: 5, rate: 0.0067 },
              },
            ],
            canaryRules: { maxRate: 0.02, ratio: 3, minPageViews: 50, minReporters: 5 },
          },
        },
      },
      400: errorResponse('A bad app, limit or cursor.', error('invalid_cursor', INVALID_DEPLOY_CURSOR)),
    },
    async handle({ query }, { services }) {
      const page = await services.deployLog.page(query);
      // Each staged release still staged, once per page (its newest entry), with a link of its own.
      const links = new Map<string, Promise<string | null>>();
      const entries = await Promise.all(
        page.entries.map(async (entry) => {
          if (entry.action !== 'stage' || entry.result !== 'ok' || !entry.version) return entry;
          const key = `${entry.app}@${entry.version}`;
          if (!links.has(key)) links.set(key, services.releases.previewUrl(entry.app, entry.version));
          const previewUrl = await links.get(key)!;
          return previewUrl ? { ...entry, previewUrl } : entry;
        }),
      );
      if (query.cursor) return { ...page, entries };
      // The first page: the canaries running now, with their live figures.
      const canaries = await services.canaries.status();
      return { ...page, entries, canaries, canaryRules: services.canaries.rules };
    },
  }),
]);
