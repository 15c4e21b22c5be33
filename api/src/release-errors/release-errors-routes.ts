import { releaseErrorsSchema } from '@site/contracts/release-errors';
import { defineEndpoints } from '../http/endpoint';

/** The dashboard's errors per release (issue 34). */
export const adminReleaseErrorsRoutes = defineEndpoints({ services: ['releaseErrors', 'admin'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/admin/release-errors',
    tag: 'Admin',
    auth: 'admin',
    summary:
      "Each remote's releases with their page views, server render errors, browser errors and error rate, over the alert window and the last 24 hours (every instance added up), and whether each is failing",
    cacheControl: 'no-store',
    responses: {
      200: {
        description: 'The served releases, and every release counted in the last 24 hours. `lastError` is a visitor’s browser text: show it escaped.',
        body: {
          schema: releaseErrorsSchema,
          component: 'ReleaseErrors',
          example: {
            windowMinutes: 15,
            threshold: { rate: 0.02, minPageViews: 20, minReporters: 5 },
            releases: [
              {
                app: 'blog',
                release: '1.4.0',
                served: true,
                // The window's 3 browser errors came from 2 visitors: shown, not in the rate (fewer than 5).
                window: { pageViews: 120, renderErrors: 1, clientErrors: 3, clientReporters: 2, rate: 0.008 },
                day: { pageViews: 2400, renderErrors: 2, clientErrors: 9, clientReporters: 7, rate: 0.005 },
                failing: false,
                lastError: "TypeError: Cannot read properties of undefined (reading 'title')",
              },
            ],
          },
        },
      },
    },
    handle: (_input, { services }) => services.releaseErrors.summary(),
  }),
]);
