import { z } from 'zod';
import {
  WEBHOOK_MESSAGES,
  webhookAttemptListSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointWithSecretSchema,
} from '@site/contracts/webhooks-out';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

const WEBHOOK_ID = { id: { description: 'The endpoint id.', example: 'whk_5d2f0c1a' } };
const DELIVERY = { ...WEBHOOK_ID, deliveryId: { description: 'The delivery id.', example: 'dlv_7c8d9e0f' } };
const WEBHOOK_NOT_FOUND = errorResponse('No endpoint has this id.', error('webhook_not_found', WEBHOOK_MESSAGES.notFound));
const DELIVERY_NOT_FOUND = errorResponse('No such endpoint or delivery.', error('delivery_not_found', WEBHOOK_MESSAGES.deliveryNotFound));
const delivery = (description: string) => ({ description, body: { schema: webhookDeliverySchema, component: 'WebhookDelivery' } });

/**
 * Outgoing webhooks in the admin panel (the Integrations screen): endpoints (the URL is shown, the signing secret only
 * in the answer that created or regenerated it), a test event, each endpoint's delivery log and redelivery. Validation,
 * the outbox and the sending are the WebhooksOutService's: bodies and the log's query go to it as sent, and its
 * messages ('Validation failed: …') are the answers.
 */
export const adminWebhooksRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['webhooksOut', 'admin'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/admin/webhooks',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The endpoints that receive outgoing webhooks (never their secrets)',
    responses: { 200: { description: 'The endpoints.', body: { schema: webhookEndpointListSchema } } },
    handle: (_input, { services }) => services.webhooksOut.listEndpoints(),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/webhooks',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Register an endpoint; the answer shows its signing secret once',
    body: { schema: webhookEndpointCreateSchema, example: { url: 'https://n8n.example.com/webhook/site', description: 'n8n', events: ['lead.created'], enabled: true }, parse: false },
    responses: {
      201: { description: 'Created, with `secret`.', body: { schema: webhookEndpointWithSecretSchema } },
      400: errorResponse('A bad field.', error('validation_failed', `Validation failed: url: ${WEBHOOK_MESSAGES.url}`, [{ path: 'url', message: WEBHOOK_MESSAGES.url }])),
      409: errorResponse('The site has as many endpoints as it may have: delete one first.', error('webhook_limit', WEBHOOK_MESSAGES.tooMany)),
    },
    handle: ({ body }, { services }) => services.webhooksOut.createEndpoint(body),
  }),
  endpoint({
    method: 'patch',
    path: '/api/admin/webhooks/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Change an endpoint; `regenerateSecret: true` answers a new secret',
    params: WEBHOOK_ID,
    body: { schema: webhookEndpointUpdateSchema, example: { enabled: false }, parse: false },
    responses: {
      200: { description: 'The endpoint (with `secret` after regenerateSecret).', body: { schema: z.union([webhookEndpointWithSecretSchema, webhookEndpointSchema]) } },
      400: errorResponse('A bad or unknown field.', error('validation_failed', `Validation failed: events: ${WEBHOOK_MESSAGES.events}`, [{ path: 'events', message: WEBHOOK_MESSAGES.events }])),
      404: WEBHOOK_NOT_FOUND,
    },
    handle: ({ params, body }, { services }) => services.webhooksOut.updateEndpoint(params.id, body),
  }),
  endpoint({
    method: 'delete',
    path: '/api/admin/webhooks/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Remove an endpoint and its delivery log',
    params: WEBHOOK_ID,
    responses: { 204: { description: 'Removed.' }, 404: WEBHOOK_NOT_FOUND },
    handle: async ({ params }, { services }) => {
      await services.webhooksOut.deleteEndpoint(params.id);
    },
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/webhooks/:id/test',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Send a `webhook.test` event to the endpoint now',
    params: WEBHOOK_ID,
    responses: {
      200: delivery('The delivery with its first attempt.'),
      400: errorResponse('The endpoint is disabled.', error('webhook_disabled', 'Enable the endpoint before sending a test event.')),
      404: WEBHOOK_NOT_FOUND,
    },
    handle: ({ params }, { services }) => services.webhooksOut.sendTest(params.id),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/webhooks/:id/deliveries',
    tag: 'Admin',
    auth: 'admin',
    summary: "The endpoint's delivery log, newest first",
    params: WEBHOOK_ID,
    query: { schema: webhookDeliveryListQuerySchema, parse: false },
    responses: {
      200: { description: 'The deliveries.', body: { schema: webhookDeliveryListSchema } },
      400: errorResponse('A bad limit.', error('validation_failed', 'Validation failed: limit: Too big: expected number to be <=200', [{ path: 'limit', message: 'Too big: expected number to be <=200' }])),
      404: WEBHOOK_NOT_FOUND,
    },
    handle: ({ params, query }, { services }) => services.webhooksOut.deliveries(params.id, query),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/webhooks/:id/deliveries/:deliveryId/attempts',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Every attempt of one delivery, with its answer or network error',
    params: DELIVERY,
    responses: { 200: { description: 'The attempts.', body: { schema: webhookAttemptListSchema } }, 404: DELIVERY_NOT_FOUND },
    handle: ({ params }, { services }) => services.webhooksOut.attempts(params.id, params.deliveryId),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/webhooks/:id/deliveries/:deliveryId/redeliver',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Send a delivery again (same event id and body)',
    params: DELIVERY,
    responses: {
      201: delivery('The new delivery with its first attempt.'),
      400: errorResponse('The endpoint is disabled.', error('webhook_disabled', 'Enable the endpoint before redelivering.')),
      404: DELIVERY_NOT_FOUND,
    },
    handle: ({ params }, { services }) => services.webhooksOut.redeliver(params.id, params.deliveryId),
  }),
]);
