import { adminAuthRoutes } from '../admin/auth-routes';
import { adminLeadsRoutes } from '../contact/leads-routes';
import { adminMediaRoutes } from '../media/admin-media-routes';
import { adminMonitoringRoutes } from '../admin/monitoring-routes';
import { adminPostsRoutes } from '../posts/admin-posts-routes';
import { adminWebhooksRoutes } from '../outgoing-webhooks/outgoing-webhooks-routes';
import { adminDeploysRoutes } from '../deploys/deploy-tokens-routes';
import { releasesRoutes } from '../deploys/releases-routes';
import { siteDeployRoutes } from '../deploys/site-deploy-routes';
import { adminReleaseErrorsRoutes } from '../release-errors/release-errors-routes';
import { analysisRoutes } from '../analysis/analysis-routes';
import { blogFeedsRoutes } from '../posts/feeds-routes';
import { contactRoutes } from '../contact/contact-routes';
import { eventsRoutes } from '../events/events-routes';
import { healthRoutes } from '../health/health-routes';
import { mediaRoutes } from '../media/media-routes';
import { openApiRoutes } from './openapi-routes';
import { apiDocsRoutes } from './api-docs-routes';
import { postsRoutes } from '../posts/posts-routes';
import type { RouteModule } from './route-module';
import { webhookRoutes } from '../incoming-webhook/incoming-webhook-routes';
import type { Endpoint } from './endpoint';

/** Every API resource, one route file each, in the order app.ts registers them. A new resource adds its module here. */
export const API_ROUTES: readonly RouteModule[] = [
  healthRoutes,
  eventsRoutes,
  contactRoutes,
  postsRoutes,
  webhookRoutes,
  blogFeedsRoutes,
  analysisRoutes,
  adminAuthRoutes,
  adminPostsRoutes,
  adminWebhooksRoutes,
  adminLeadsRoutes,
  adminMonitoringRoutes,
  openApiRoutes,
  apiDocsRoutes,
  adminMediaRoutes,
  mediaRoutes,
  adminDeploysRoutes,
  releasesRoutes,
  siteDeployRoutes,
  adminReleaseErrorsRoutes,
];

/** The endpoints every route file defines (what the API description is made of, with or without a running app). */
export const API_ENDPOINTS: readonly Endpoint[] = API_ROUTES.flatMap((module) => (module as { endpoints?: readonly Endpoint[] }).endpoints ?? []);
