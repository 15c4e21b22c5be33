import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { webhookPostSchema, type WebhookPostInput } from '@site/contracts/posts';
import { requestJson } from '@site/ui';

/** The part of the API description (GET /api/openapi.json) the webhook docs show: the webhook's example body. */
const descriptionSchema = z.object({
  paths: z.object({
    '/api/webhook': z.object({
      post: z.object({ requestBody: z.object({ content: z.object({ 'application/json': z.object({ example: webhookPostSchema }) }) }) }),
    }),
  }),
});

/** GET /api/openapi.json, public: the example body of `POST /api/webhook`, as the API describes it (one copy, the server's). */
export async function getWebhookExample(signal?: AbortSignal): Promise<WebhookPostInput> {
  const description = await requestJson('/api/openapi.json', descriptionSchema, { signal });
  return description.paths['/api/webhook'].post.requestBody.content['application/json'].example;
}

/** The example, once per visit of the panel: the description changes only with a new release of the API. */
export function useWebhookExampleQuery() {
  return useQuery({ queryKey: ['api-description', 'webhook-example'], queryFn: ({ signal }) => getWebhookExample(signal), staleTime: Infinity });
}
