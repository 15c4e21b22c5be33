import type { z } from 'zod';
import { errorEnvelopeSchema } from '@site/contracts/error';

/*
 * The pieces the OpenAPI description (./openapi.ts) is written with, shared by its public and admin halves
 * (./openapi-admin.ts): what one operation, body and answer are, and the error answers every route can give.
 */

export type Schema = z.ZodType;

export interface DocumentedBody {
  schema: Schema;
  /** Described once under components.schemas with this name and referenced (large shapes used several times). */
  component?: string;
  example?: unknown;
  /** Defaults to application/json; several when the answer is one of them (an image in its own format). */
  contentType?: string | readonly string[];
}

export interface DocumentedResponse {
  description: string;
  body?: DocumentedBody;
  headers?: Record<string, string>;
}

/**
 * Who may call an operation: anyone (`public`), anyone with more for an admin session (`public-or-admin`), the admin
 * session cookie (`admin`), or a signed delivery (`webhook`). Becomes the operation's `security`.
 */
export type OperationSecurity = 'public' | 'public-or-admin' | 'admin' | 'webhook';

export interface DocumentedOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path (`/api/posts/{slug}`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Defaults to `public`. */
  security?: OperationSecurity;
  params?: Record<string, { description: string; example: string; schema?: Schema }>;
  query?: Schema;
  headers?: Array<{ name: string; required: boolean; description: string; example: string; schema?: Schema }>;
  body?: DocumentedBody;
  responses: Record<number, DocumentedResponse>;
}

export const error = (code: string, message: string, details?: unknown) => ({ error: details === undefined ? { code, message } : { code, message, details } });
export const errorResponse = (description: string, example: unknown, headers?: Record<string, string>): DocumentedResponse => ({
  description,
  body: { schema: errorEnvelopeSchema, example },
  headers,
});

export const COMMON_ERRORS = {
  413: errorResponse('The body is larger than BODY_LIMIT (100 KB by default).', error('payload_too_large', 'The request body is larger than this endpoint accepts.')),
  415: errorResponse(
    'The body is not JSON, or its Content-Encoding is not gzip, deflate or br.',
    error('unsupported_media_type', 'Send the body as application/json.'),
  ),
  429: errorResponse('Too many requests from this client; retry after the number of seconds in Retry-After.', error('rate_limited', 'Too many requests. Please wait a moment and try again.'), {
    'Retry-After': 'Seconds until the limit resets.',
  }),
} satisfies Record<number, DocumentedResponse>;

/** What every text field of a request obeys beyond its schema's keywords (JSON Schema has no "after trimming"). */
export const TEXT_RULES_NOTE =
  'Text fields are trimmed of surrounding white space before their length rules apply (`minLength` counts what is left), ' +
  'and the server counts UTF-16 code units: a character beyond U+FFFF (most emoji) counts twice toward `maxLength`. ' +
  'Their `pattern` refuses control characters (tab and line breaks are allowed in multi-line fields), the text-direction ' +
  'overrides and isolates U+202A–U+202E and U+2066–U+2069, and unpaired UTF-16 surrogates; patterns are ECMA-262 ' +
  'regular expressions with the `u` flag.';
