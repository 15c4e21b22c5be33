import { alertHistoryQuerySchema, alertSettingUpdateSchema, alertTypeSchema, type AnalysisDataSource } from '@site/contracts/admin';
import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { parseQuery } from './query';
import { defineRoutes } from './route-module';

/**
 * The dashboard and alert management: health checks (latest, refresh), alert settings and history, traffic,
 * Docker and vulnerability summaries, and the funnel of tracking events.
 */
export const adminMonitoringRoutes = defineRoutes(
  { config: ['bodyLimit', 'publicOrigin', 'googlePlacesApiKey', 'yelpApiKey'], services: ['admin'] },
  (router, deps) => {
    const { config, services } = deps;
    const { guard } = adminGuard(deps);
    const admin = services.admin;
    const body = jsonBody({ limit: config.bodyLimit });

    // Which analysis keys are set (never their values): without them the free scorecard shows sample data.
    const analysisData: AnalysisDataSource[] = [
      { key: 'GOOGLE_PLACES_API_KEY', provides: 'Google Business Profile, rating, reviews and local competitors', configured: Boolean(config.googlePlacesApiKey) },
      { key: 'YELP_API_KEY', provides: 'Yelp listing, rating and reviews', configured: Boolean(config.yelpApiKey) },
    ];

    router.get('/api/admin/health', ...guard, async (ctx) => {
      ctx.body = { ...(await admin.health.latest()), analysisData };
    });

    router.post('/api/admin/health/refresh', ...guard, async (ctx) => {
      ctx.body = { ...(await admin.health.run()), analysisData };
    });

    router.get('/api/admin/alerts/settings', ...guard, async (ctx) => {
      ctx.body = await admin.alerts.settings();
    });

    router.patch('/api/admin/alerts/settings/:type', ...guard, body, async (ctx) => {
      const type = alertTypeSchema.parse(ctx.params.type);
      ctx.body = await admin.alerts.updateSetting(type, alertSettingUpdateSchema.parse(ctx.request.body ?? {}));
    });

    router.get('/api/admin/alerts', ...guard, async (ctx) => {
      ctx.body = await admin.alerts.history(parseQuery(alertHistoryQuerySchema, ctx.query).limit);
    });

    router.post('/api/admin/alerts/:id/acknowledge', ...guard, async (ctx) => {
      ctx.body = await admin.alerts.acknowledge(ctx.params.id!);
    });

    router.delete('/api/admin/alerts', ...guard, async (ctx) => {
      await admin.alerts.clear();
      ctx.status = 204;
    });

    router.get('/api/admin/traffic', ...guard, async (ctx) => {
      ctx.body = admin.traffic.snapshot();
    });

    router.get('/api/admin/docker', ...guard, async (ctx) => {
      ctx.body = await admin.docker();
    });

    router.get('/api/admin/vulnerabilities', ...guard, async (ctx) => {
      ctx.body = await admin.vulnerabilities();
    });

    router.get('/api/admin/funnel', ...guard, async (ctx) => {
      ctx.body = await admin.funnel.summary();
    });
  },
);
