import {
  ADMIN_MESSAGES,
  adminFunnelSchema,
  adminHealthSchema,
  adminTrafficSchema,
  alertEntrySchema,
  alertHistoryQuerySchema,
  alertHistorySchema,
  alertSettingsSchema,
  alertSettingUpdateSchema,
  alertTypeSchema,
  dockerSummarySchema,
  vulnerabilitySummarySchema,
  type AnalysisDataSource,
} from '@site/contracts/admin';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

const healthAnswer = (description: string) => ({ description, body: { schema: adminHealthSchema, component: 'AdminHealth' } });
const settingsAnswer = (description: string) => ({ description, body: { schema: alertSettingsSchema, component: 'AlertSettings' } });

/**
 * The dashboard and alert management: health checks (latest, refresh), alert settings and history, traffic,
 * Docker and vulnerability summaries, and the funnel of tracking events and stored leads.
 */
export const adminMonitoringRoutes = defineEndpoints(
  { config: ['bodyLimit', 'publicOrigin', 'googlePlacesApiKey', 'yelpApiKey'], services: ['admin'] },
  (endpoint) => {
    // Which analysis keys are set (never their values): without them the free scorecard shows sample data.
    const analysisData = (config: { googlePlacesApiKey?: string; yelpApiKey?: string }): AnalysisDataSource[] => [
      { key: 'GOOGLE_PLACES_API_KEY', provides: 'Google Business Profile, rating, reviews and local competitors', configured: Boolean(config.googlePlacesApiKey) },
      { key: 'YELP_API_KEY', provides: 'Yelp listing, rating and reviews', configured: Boolean(config.yelpApiKey) },
    ];
    return [
      endpoint({
        method: 'get',
        path: '/api/admin/health',
        tag: 'Admin',
        auth: 'admin',
        summary: 'The latest health checks and which analysis provider keys are set',
        responses: { 200: healthAnswer('The stored results.') },
        handle: async (_input, { config, services }) => ({ ...(await services.admin.health.latest()), analysisData: analysisData(config) }),
      }),
      endpoint({
        method: 'post',
        path: '/api/admin/health/refresh',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Run the health checks now',
        responses: { 200: healthAnswer('The new results.') },
        handle: async (_input, { config, services }) => ({ ...(await services.admin.health.run()), analysisData: analysisData(config) }),
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/alerts/settings',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Alert settings, one per alert type',
        responses: { 200: settingsAnswer('The settings.') },
        handle: (_input, { services }) => services.admin.alerts.settings(),
      }),
      endpoint({
        method: 'patch',
        path: '/api/admin/alerts/settings/:type',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Change one alert setting (a threshold only for diskSpace, memory and cpu)',
        params: { type: { description: 'The alert type.', example: 'diskSpace', schema: alertTypeSchema } },
        body: { schema: alertSettingUpdateSchema.meta({ minProperties: 1 }), example: { enabled: true, threshold: 85 } },
        responses: {
          200: settingsAnswer('Every setting.'),
          400: errorResponse(
            'An unknown type, no field, a bad value, or a threshold for a type without one.',
            error('validation_failed', 'threshold: Threshold must be a whole number from 1 to 100', [{ path: 'threshold', message: 'Threshold must be a whole number from 1 to 100' }]),
          ),
        },
        handle: ({ params, body }, { services }) => services.admin.alerts.updateSetting(params.type, body),
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/alerts',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Alert history, newest first',
        query: { schema: alertHistoryQuerySchema },
        responses: {
          200: { description: 'The history.', body: { schema: alertHistorySchema } },
          400: errorResponse('A bad limit.', error('validation_failed', 'limit: limit must be a number', [{ path: 'limit', message: 'limit must be a number' }])),
        },
        handle: ({ query }, { services }) => services.admin.alerts.history(query.limit),
      }),
      endpoint({
        method: 'post',
        path: '/api/admin/alerts/:id/acknowledge',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Acknowledge an alert',
        params: { id: { description: 'The alert id.', example: 'alert_5e6f7a8b' } },
        responses: {
          200: { description: 'The alert.', body: { schema: alertEntrySchema } },
          404: errorResponse('No alert has this id.', error('not_found', ADMIN_MESSAGES.alertNotFound)),
        },
        handle: ({ params }, { services }) => services.admin.alerts.acknowledge(params.id),
      }),
      endpoint({
        method: 'delete',
        path: '/api/admin/alerts',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Clear the alert history',
        responses: { 204: { description: 'Cleared.' } },
        handle: async (_input, { services }) => {
          await services.admin.alerts.clear();
        },
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/traffic',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Client addresses of the last hour, suspicious first',
        responses: { 200: { description: 'The snapshot.', body: { schema: adminTrafficSchema } } },
        handle: (_input, { services }) => services.admin.traffic.snapshot(),
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/docker',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Containers from the Docker socket, when it is mounted',
        responses: { 200: { description: 'The containers, or `available: false` with the reason.', body: { schema: dockerSummarySchema } } },
        handle: (_input, { services }) => services.admin.docker(),
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/vulnerabilities',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Counts from the dependency audit written at build time, if any',
        responses: { 200: { description: 'The counts, or `available: false` with the reason.', body: { schema: vulnerabilitySummarySchema } } },
        handle: (_input, { services }) => services.admin.vulnerabilities(),
      }),
      endpoint({
        method: 'get',
        path: '/api/admin/funnel',
        tag: 'Admin',
        auth: 'admin',
        summary: 'Analyses, contact messages and page views of the last 7 and 30 days',
        description:
          'Analyses and page views count the tracking events the site stored; contact messages count the messages stored (the leads the inbox lists, sent by the form or by an API client such as n8n), each on the UTC day it arrived.',
        responses: { 200: { description: 'The two windows.', body: { schema: adminFunnelSchema } } },
        handle: (_input, { services }) => services.admin.funnel.summary(),
      }),
    ];
  },
);
