import { adminLeadListQuerySchema, adminLeadUpdateSchema } from '@site/contracts/admin';
import { jsonBody } from '../middleware/json-body';
import { adminGuard } from './admin-guard';
import { parseQuery } from './query';
import { defineRoutes } from './route-module';

/** The contact-message inbox: list (newest first, search, filter, pages), read/handled flags, CSV export. */
export const adminLeadsRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['admin'], context: ['clock'] }, (router, deps) => {
  const { config, services, clock } = deps;
  const { guard } = adminGuard(deps);

  router.get('/api/admin/leads', ...guard, async (ctx) => {
    ctx.body = await services.admin.leads.list(parseQuery(adminLeadListQuerySchema, ctx.query));
  });

  router.get('/api/admin/leads/export.csv', ...guard, async (ctx) => {
    const { q, filter } = parseQuery(adminLeadListQuerySchema, ctx.query);
    const csv = await services.admin.leads.exportCsv({ q, filter });
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(`contact-messages-${clock().toISOString().slice(0, 10)}.csv`);
    // A BOM, so spreadsheet programs read the names as UTF-8.
    ctx.body = `\uFEFF${csv}`;
  });

  router.patch('/api/admin/leads/:id', ...guard, jsonBody({ limit: config.bodyLimit }), async (ctx) => {
    ctx.body = await services.admin.leads.update(ctx.params.id!, adminLeadUpdateSchema.parse(ctx.request.body ?? {}));
  });
});
