import type { Context } from 'koa';
import { analysisIdSchema, smbAnalysisRequestSchema, websiteAnalysisRequestSchema } from '@site/contracts/analysis';
import { createAnalysesRepository } from '../db/repositories/analyses-repository';
import { ApiError, notFound } from '../lib/api-error';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { createAnalysisEngine, createAnalysisService, type AnalysisEngineDeps } from '../services/analysis/analysis-service';
import { WebsiteRefusedError } from '../services/analysis/website/fetch-website';
import type { RouteModule } from './route-module';

export const ANALYSIS_RATE_LIMIT = { windowMs: 60 * 60_000, max: 20 } as const;

/**
 * What tests (and only tests) may change: provider base URLs aimed at local fakes, shorter timeouts, and the
 * website fetcher's options (an injected resolver, the test-only loopback allowance). Production passes nothing:
 * keys come from config, nothing in the environment can allow loopback.
 */
export type AnalysisRouteOptions = Omit<AnalysisEngineDeps, 'googlePlacesApiKey' | 'yelpApiKey' | 'clock'>;

/** `POST /api/analyze-smb-business`, `POST /api/analyze-website`, `GET /api/analyses/:id`. */
export function createAnalysisRoutes(options: AnalysisRouteOptions = {}): RouteModule {
  return (router, { config, clock, database }) => {
    const engine = createAnalysisEngine({
      ...options,
      googlePlacesApiKey: config.googlePlacesApiKey,
      yelpApiKey: config.yelpApiKey,
      clock,
    });
    const service = createAnalysisService({ engine, repository: createAnalysesRepository(database.db), clock });
    const limit = rateLimit({
      ...ANALYSIS_RATE_LIMIT,
      keyPrefix: 'analysis',
      clock,
      multiplier: config.rateLimitMultiplier,
      message: 'Too many analyses from your connection. Please try again in an hour, or book a free consultation.',
    });
    const body = jsonBody({ limit: config.bodyLimit });

    const refusedAs400 = async (run: () => Promise<unknown>, ctx: Context) => {
      try {
        ctx.body = await run();
      } catch (error) {
        if (error instanceof WebsiteRefusedError) throw new ApiError(400, 'website_refused', `This website cannot be analyzed: ${error.message}`);
        throw error;
      }
      ctx.status = 200;
      ctx.set('Cache-Control', 'no-store');
    };

    router.post('/api/analyze-smb-business', limit, body, async (ctx) => {
      const input = smbAnalysisRequestSchema.parse(ctx.request.body ?? {});
      await refusedAs400(() => service.analyzeSmb(input), ctx);
    });

    router.post('/api/analyze-website', limit, body, async (ctx) => {
      const input = websiteAnalysisRequestSchema.parse(ctx.request.body ?? {});
      await refusedAs400(() => service.analyzeWebsite({ url: input.url, location: input.location }), ctx);
    });

    router.get('/api/analyses/:id', async (ctx) => {
      const id = analysisIdSchema.safeParse(ctx.params.id);
      const found = id.success ? await service.getAnalysis(id.data) : undefined;
      if (!found) throw notFound('Analysis not found');
      ctx.set('Cache-Control', 'private, max-age=60');
      ctx.body = found;
    });
  };
}

export const analysisRoutes: RouteModule = createAnalysisRoutes();
