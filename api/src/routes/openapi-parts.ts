import { z } from 'zod';
import { trackingEventSchema } from '@site/contracts/events';
import { OPERATIONS } from '../services/openapi';
import type { DescribedOperation } from './openapi-document';

export { COMMON_ERRORS, error, errorResponse, TEXT_RULES_NOTE } from '../services/openapi-parts';
export { EXAMPLE_WEBHOOK_BODY } from '../services/openapi';

/**
 * Rules the server enforces that zod cannot write as JSON Schema (a refinement, a check in a service), stated for the
 * description beside the schema they belong to: `normalize` in ./openapi-document.ts adds them wherever the schema
 * appears (in a body, inside an optional, in every endpoint that uses it).
 */
export const DOCUMENTED_RULES = z.registry<Record<string, unknown>>();
// A tracked path is the path alone: no query string or fragment (a refinement of the contract).
DOCUMENTED_RULES.add(trackingEventSchema.shape.path, { pattern: '^/[^?#]*$' });

/** The operations still described by hand (services/openapi*.ts) until their route file defines its endpoints. */
export const HAND_WRITTEN_OPERATIONS: readonly DescribedOperation[] = OPERATIONS.map((op) => ({ ...op, security: op.security ?? 'public' }));
