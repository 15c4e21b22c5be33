import { adminAuthRoutes } from './admin-auth';
import { adminLeadsRoutes } from './admin-leads';
import { adminMediaRoutes } from './admin-media';
import { adminMonitoringRoutes } from './admin-monitoring';
import { adminPostsRoutes } from './admin-posts';
import { adminWebhooksRoutes } from './admin-webhooks';
import { analysisRoutes } from './analysis';
import { blogFeedsRoutes } from './blog-feeds';
import { contactRoutes } from './contact';
import { eventsRoutes } from './events';
import { healthRoutes } from './health';
import { mediaRoutes } from './media';
import { openApiRoutes } from './openapi';
import { postsRoutes } from './posts';
import type { RouteModule } from './route-module';
import { webhookRoutes } from './webhook';
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
  adminMediaRoutes,
  mediaRoutes,
];

/** The endpoints every route file defines (what the API description is made of, with or without a running app). */
export const API_ENDPOINTS: readonly Endpoint[] = API_ROUTES.flatMap((module) => (module as { endpoints?: readonly Endpoint[] }).endpoints ?? []);
