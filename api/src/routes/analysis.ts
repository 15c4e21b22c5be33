import { analysisIdSchema, smbAnalysisRequestSchema, websiteAnalysisRequestSchema } from '@site/contracts/analysis';
import { NotFoundError } from '../lib/domain-errors';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { defineRoutes } from './route-module';

export const ANALYSIS_RATE_LIMIT = { windowMs: 60 * 60_000, max: 20 } as const;

/**
 * `POST /api/analyze-smb-business`, `POST /api/analyze-website`, `GET /api/analyses/:id`.
 * A website the fetcher refuses is the service's RefusedError (400 `website_refused` via the error middleware).
 */
export const analysisRoutes = defineRoutes(
  { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['analysis'], context: ['rateLimits'] },
  (router, { config, rateLimits, services }) => {
    const limit = rateLimit({
      ...ANALYSIS_RATE_LIMIT,
      keyPrefix: 'analysis',
      store: rateLimits,
      multiplier: config.rateLimitMultiplier,
      message: 'Too many analyses from your connection. Please try again in an hour, or book a free consultation.',
    });
    const body = jsonBody({ limit: config.bodyLimit });

    router.post('/api/analyze-smb-business', limit, body, async (ctx) => {
      const input = smbAnalysisRequestSchema.parse(ctx.request.body ?? {});
      ctx.body = await services.analysis.analyzeSmb(input);
      ctx.set('Cache-Control', 'no-store');
    });

    router.post('/api/analyze-website', limit, body, async (ctx) => {
      const input = websiteAnalysisRequestSchema.parse(ctx.request.body ?? {});
      ctx.body = await services.analysis.analyzeWebsite({ url: input.url, location: input.location });
      ctx.set('Cache-Control', 'no-store');
    });

    router.get('/api/analyses/:id', async (ctx) => {
      const id = analysisIdSchema.safeParse(ctx.params.id);
      const found = id.success ? await services.analysis.getAnalysis(id.data) : undefined;
      if (!found) throw new NotFoundError('Analysis not found');
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.body = found;
    });
  },
);
