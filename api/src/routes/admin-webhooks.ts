import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { defineRoutes } from './route-module';

/**
 * Outgoing webhooks in the admin panel (the Integrations screen): endpoints (the URL is shown, the signing secret only
 * in the answer that created or regenerated it), a test event, each endpoint's delivery log and redelivery. Validation,
 * the outbox and the sending are the WebhooksOutService's.
 */
export const adminWebhooksRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['webhooksOut', 'admin'] }, (router, deps) => {
  const { config, services } = deps;
  const { guard } = adminGuard(deps);
  const body = jsonBody({ limit: config.bodyLimit });

  router.get('/api/admin/webhooks', ...guard, async (ctx) => {
    ctx.body = await services.webhooksOut.listEndpoints();
  });

  router.post('/api/admin/webhooks', ...guard, body, async (ctx) => {
    ctx.status = 201;
    ctx.body = await services.webhooksOut.createEndpoint(ctx.request.body);
  });

  router.patch('/api/admin/webhooks/:id', ...guard, body, async (ctx) => {
    ctx.body = await services.webhooksOut.updateEndpoint(ctx.params.id!, ctx.request.body);
  });

  router.delete('/api/admin/webhooks/:id', ...guard, async (ctx) => {
    await services.webhooksOut.deleteEndpoint(ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/api/admin/webhooks/:id/test', ...guard, async (ctx) => {
    ctx.body = await services.webhooksOut.sendTest(ctx.params.id!);
  });

  router.get('/api/admin/webhooks/:id/deliveries', ...guard, async (ctx) => {
    ctx.body = await services.webhooksOut.deliveries(ctx.params.id!, ctx.query);
  });

  router.get('/api/admin/webhooks/:id/deliveries/:deliveryId/attempts', ...guard, async (ctx) => {
    ctx.body = await services.webhooksOut.attempts(ctx.params.id!, ctx.params.deliveryId!);
  });

  router.post('/api/admin/webhooks/:id/deliveries/:deliveryId/redeliver', ...guard, async (ctx) => {
    ctx.status = 201;
    ctx.body = await services.webhooksOut.redeliver(ctx.params.id!, ctx.params.deliveryId!);
  });
});
