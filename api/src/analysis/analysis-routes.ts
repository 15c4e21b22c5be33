import { analysisIdSchema, analysisResponseSchema, smbAnalysisRequestSchema, websiteAnalysisRequestSchema } from '@site/contracts/analysis';
import { NotFoundError } from '../lib/domain-errors';
import { defineEndpoints, type DocumentedBody, type RateLimitRule } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

export const ANALYSIS_RATE_LIMIT = { windowMs: 60 * 60_000, max: 20 } as const;

/** One budget for both kinds of analysis (the same rule object on both endpoints). */
const ANALYSIS_LIMIT: RateLimitRule = {
  ...ANALYSIS_RATE_LIMIT,
  keyPrefix: 'analysis',
  message: 'Too many analyses from your connection. Please try again in an hour, or book a free consultation.',
};

const analysisBody = { schema: analysisResponseSchema, component: 'AnalysisResponse' } satisfies DocumentedBody;

/**
 * `POST /api/analyze-smb-business`, `POST /api/analyze-website`, `GET /api/analyses/:id`.
 * A website the fetcher refuses is the service's RefusedError (400 `website_refused` via the error middleware).
 */
export const analysisRoutes = defineEndpoints({ config: ['bodyLimit', 'rateLimitMultiplier'], services: ['analysis'], context: ['rateLimits'] }, (endpoint) => [
  endpoint({
    method: 'post',
    path: '/api/analyze-smb-business',
    tag: 'Analysis',
    summary: 'Scorecard of a local business (20 analyses an hour per client, shared with analyze-website; a `website` without a scheme gets https://)',
    cacheControl: 'no-store',
    rateLimits: [ANALYSIS_LIMIT],
    body: { schema: smbAnalysisRequestSchema, example: { businessName: 'Hartz Avenue Bistro', businessType: 'Restaurant', location: 'Danville, CA', website: 'hartzbistro.example' } },
    responses: {
      200: { description: 'The scorecard, stored under its `id`.', body: analysisBody },
      400: errorResponse(
        'A bad field, or a website the server refuses to fetch (`website_refused`).',
        error('validation_failed', 'businessName: Enter a business name', [{ path: 'businessName', message: 'Enter a business name' }]),
      ),
    },
    handle: ({ body }, { services }) => services.analysis.analyzeSmb(body),
  }),
  endpoint({
    method: 'post',
    path: '/api/analyze-website',
    tag: 'Analysis',
    summary: 'Scorecard of one website (https:// is added to an address without a scheme)',
    cacheControl: 'no-store',
    rateLimits: [ANALYSIS_LIMIT],
    body: { schema: websiteAnalysisRequestSchema, example: { url: 'hartzbistro.example', mode: 'website', location: 'Danville, CA' } },
    responses: {
      200: { description: 'The scorecard, stored under its `id`.', body: analysisBody },
      400: errorResponse('A bad field or a refused website.', error('website_refused', 'This website cannot be analyzed: Only ports 80 and 443 are allowed (got 8080).')),
    },
    handle: ({ body }, { services }) => services.analysis.analyzeWebsite({ url: body.url, location: body.location }),
  }),
  endpoint({
    method: 'get',
    path: '/api/analyses/:id',
    tag: 'Analysis',
    summary: 'A stored scorecard',
    cacheControl: 'private, max-age=60',
    // Not validated as a parameter: a malformed id is as unknown as a missing one (404).
    params: { id: { description: 'The `id` of an analysis answer.', example: 'Xk3v9QpL2mNa' } },
    responses: {
      200: { description: 'The stored scorecard.', body: analysisBody },
      404: errorResponse('Unknown or malformed id.', error('not_found', 'Analysis not found')),
    },
    handle: async ({ params }, { services }) => {
      const id = analysisIdSchema.safeParse(params.id);
      const found = id.success ? await services.analysis.getAnalysis(id.data) : undefined;
      if (!found) throw new NotFoundError('Analysis not found');
      return found;
    },
  }),
]);
