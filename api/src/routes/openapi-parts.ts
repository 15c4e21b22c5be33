import { z } from 'zod';
import { adminPostScheduleSchema } from '@site/contracts/admin';
import { trackingEventSchema } from '@site/contracts/events';
import { postInputSchema } from '@site/contracts/posts';
import { webhookUrlSchema } from '@site/contracts/webhooks-out';
import { OPERATIONS } from '../services/openapi';
import type { DescribedOperation } from './openapi-document';

export { COMMON_ERRORS, error, errorResponse, TEXT_RULES_NOTE } from '../services/openapi-parts';
export { EXAMPLE_POST, EXAMPLE_WEBHOOK_BODY } from '../services/openapi';
export { documentedPostFields, EXAMPLE_POST_INPUT } from '../services/openapi-admin';

/**
 * Rules the server enforces that zod cannot write as JSON Schema (a refinement, a check in a service), stated for the
 * description beside the schema they belong to: `normalize` in ./openapi-document.ts adds them wherever the schema
 * appears (in a body, inside an optional, in every endpoint that uses it).
 */
export const DOCUMENTED_RULES = z.registry<Record<string, unknown>>();
// A tracked path is the path alone: no query string or fragment (a refinement of the contract).
DOCUMENTED_RULES.add(trackingEventSchema.shape.path, { pattern: '^/[^?#]*$' });
/**
 * `publishAt` as the post service parses it (@site/contracts/post-schedule): an RFC 3339 date-time with its offset
 * (`Z` or ±hh:mm), seconds optional for the server but written here, at most 3 digits of fraction.
 */
const PUBLISH_AT = { format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,3})?(?:Z|[+-]\\d{2}:\\d{2})$' };
DOCUMENTED_RULES.add(postInputSchema.shape.publishAt.unwrap(), PUBLISH_AT);
DOCUMENTED_RULES.add(adminPostScheduleSchema.shape.publishAt, PUBLISH_AT);
/**
 * An outgoing webhook's address: http or https, a host, no user name or password (what `webhookUrlSchema`'s
 * refinements accept, stated a little narrower: a host of letters, digits, dots and hyphens, and a port of digits).
 */
DOCUMENTED_RULES.add(webhookUrlSchema, { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?$', format: 'uri' });

/** The operations still described by hand (services/openapi*.ts) until their route file defines its endpoints. */
export const HAND_WRITTEN_OPERATIONS: readonly DescribedOperation[] = OPERATIONS.map((op) => ({ ...op, security: op.security ?? 'public' }));
