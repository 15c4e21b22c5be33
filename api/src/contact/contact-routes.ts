import type { Context, Next } from 'koa';
import {
  CONTACT_FAILED_MESSAGE,
  contactErrorResponseSchema,
  contactIdempotencyKeySchema,
  contactRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  contactResponseSchema,
  type ContactErrorResponse,
  type ContactResponse,
} from '@site/contracts/contact';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { defineEndpoints, type DocumentedResponse } from '../http/endpoint';
import { COMMON_ERRORS, error, errorResponse } from '../http/openapi-parts';
import type { Services } from '../services';

export const CONTACT_RATE_LIMIT = { windowMs: 10 * 60_000, max: 5 } as const;
/** Invalid attempts have a budget of their own, so typos never use up the 5 messages and a bot is still stopped. */
export const CONTACT_INVALID_RATE_LIMIT = { windowMs: 10 * 60_000, max: 30 } as const;

/** The contact endpoint as the router matches it (case-insensitive, a trailing slash allowed). */
const CONTACT_PATH = /^\/api\/contact\/?$/i;

/**
 * Every failed answer of the contact endpoint keeps the spec's contract (section 7: `{ success, message }`, and the
 * form shows `message`): `success: false` and `message` are added beside the error envelope, with the envelope's own
 * sentence, or the spec's 'Failed to send message. Please try again.' where the server can say nothing more (5xx).
 * Mounted outside the error handler, so it sees the answer whatever refused the request: the body size check before
 * routing (413), the parser (400, 415), the limits (429), validation (400) or a fault (5xx).
 */
export function contactFailureAnswer() {
  return async function addContactFailureFields(ctx: Context, next: Next) {
    await next();
    if (ctx.status < 400 || !CONTACT_PATH.test(ctx.path)) return;
    const envelope = errorEnvelopeSchema.safeParse(ctx.body);
    if (!envelope.success) return;
    const error = envelope.data.error.code === 'internal_error' ? { ...envelope.data.error, message: CONTACT_FAILED_MESSAGE } : envelope.data.error;
    ctx.body = { success: false, message: error.message, error } satisfies ContactErrorResponse;
  };
}

/** Whether the request repeats a submission already stored (a valid Idempotency-Key of a stored message). */
async function repeatOfStored(ctx: Context, { services }: { services: Pick<Services, 'contact'> }): Promise<boolean> {
  const key = contactIdempotencyKeySchema.safeParse(ctx.get(IDEMPOTENCY_KEY_HEADER) || undefined);
  return key.success && key.data !== undefined && (await services.contact.isStored(key.data));
}

/**
 * A failed contact answer: the error envelope plus the spec's `success: false` and `message` (the same sentence), for
 * every status, as the contact form reads it.
 */
const contactErrorResponse = ({ description, body, headers }: DocumentedResponse): DocumentedResponse => {
  const envelope = body!.example as ReturnType<typeof error>;
  return {
    description: `${description} The answer also carries \`success: false\` and \`message\` (the same sentence as \`error.message\`), as the contact form reads it.`,
    body: { schema: contactErrorResponseSchema, example: { success: false, message: envelope.error.message, ...envelope } },
    headers,
  };
};

/**
 * `POST /api/contact`: the contact form. Stored first, then answered `{ success: true, message }`; the owner's mail
 * follows. Failures are the one error envelope plus `{ success: false, message }` (contactFailureAnswer).
 */
export const contactRoutes = defineEndpoints(
  { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['contact'], context: ['rateLimits', 'logger'] },
  (endpoint) => [
    endpoint({
      method: 'post',
      path: '/api/contact',
      tag: 'Contact',
      summary: 'Send a message to the owner (stored before the answer; 5 accepted messages per 10 minutes per client)',
      description: [
        'Failed attempts (400) do not use up the 5 messages; they have a budget of their own (30 per 10 minutes). Text fields refuse control and text-direction characters; the message keeps line breaks.',
        'Send an `Idempotency-Key` (one per submission, the same when the submission is sent again): one message is stored per key, and a repeat',
        'with the same fields answers what the first did (with `Idempotent-Replayed: true`), storing, mailing and announcing nothing new;',
        'the same key with other fields is a 409. Keys are kept with their message.',
      ].join(' '),
      cacheControl: 'no-store',
      rateLimits: [
        {
          ...CONTACT_INVALID_RATE_LIMIT,
          keyPrefix: 'contact-invalid',
          count: 'failed',
          message: 'Too many attempts that could not be sent from your connection. Please wait a few minutes, or call or email us directly.',
        },
        {
          ...CONTACT_RATE_LIMIT,
          keyPrefix: 'contact',
          count: 'accepted',
          message: 'Too many messages from your connection. Please wait a few minutes, or call or email us directly.',
          // A submission sent again whose message is stored already stores nothing: its visitor, whose answer was lost,
          // gets it even with the budget used up (the same key with other fields is still a failed attempt, above).
          exempt: repeatOfStored,
        },
      ],
      headers: {
        [IDEMPOTENCY_KEY_HEADER]: {
          description:
            'One per submission (a UUID), kept when the same submission is sent again after an error or a lost answer: the message is stored once per key. Optional.',
          example: '5f0c2d9e-8a41-4d6b-9a53-2e6f1c7b0a44',
          schema: contactIdempotencyKeySchema,
        },
      },
      body: {
        schema: contactRequestSchema,
        example: { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Engines', subject: 'Missed calls', message: 'We miss calls at lunch time. Can an assistant answer them?' },
      },
      responses: {
        200: {
          description: 'Stored; the owner is told by mail. Or, with `Idempotent-Replayed: true`, stored before under this Idempotency-Key: the same answer, nothing stored or sent again.',
          body: { schema: contactResponseSchema, example: { success: true, message: "Thanks, Ada! Your message has arrived. We'll get back to you within one business day." } },
          headers: { 'Idempotent-Replayed': '`true` when the message was stored before under this Idempotency-Key.' },
        },
        400: contactErrorResponse(
          errorResponse(
            'A field breaks a rule (`details` lists each field and message), or the body is not valid JSON.',
            error('validation_failed', 'email: Enter a valid email address', [{ path: 'email', message: 'Enter a valid email address' }]),
          ),
        ),
        409: contactErrorResponse(
          errorResponse(
            'The Idempotency-Key was used before with other fields; nothing was stored. A new submission needs a new key.',
            error('idempotency_conflict', 'This Idempotency-Key was already used with a different message. Send it with a new key.'),
          ),
        ),
        413: contactErrorResponse(COMMON_ERRORS[413]),
        415: contactErrorResponse(COMMON_ERRORS[415]),
        429: contactErrorResponse(
          errorResponse(
            'Too many messages (or too many failed attempts) from this client; retry after the number of seconds in Retry-After.',
            error('rate_limited', 'Too many messages from your connection. Please wait a few minutes, or call or email us directly.'),
            COMMON_ERRORS[429].headers,
          ),
        ),
        500: contactErrorResponse(errorResponse('The message could not be stored; nothing was sent.', error('internal_error', CONTACT_FAILED_MESSAGE))),
      },
      handle: async ({ body: input, headers }, { services, logger }, ctx) => {
        const idempotencyKey = headers[IDEMPOTENCY_KEY_HEADER];
        const outcome = await services.contact.submit(input, { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined, idempotencyKey });
        const firstName = input.name.split(/\s+/)[0];
        if (outcome.kind === 'dropped') logger.info({ ip: ctx.ip }, 'contact honeypot filled; message dropped');
        // The same fields, so the same words as the first answer, which the visitor may never have received.
        if (outcome.kind === 'repeated') {
          logger.info({ contactMessageId: outcome.message.id }, 'contact submission repeated; answered as the first time');
          ctx.set('Idempotent-Replayed', 'true');
        }
        // A bot that filled the honeypot sees the same answer as a person: nothing tells it it was dropped.
        return {
          success: true,
          message: `Thanks, ${firstName}! Your message has arrived. We'll get back to you within one business day.`,
        } satisfies ContactResponse;
      },
    }),
  ],
);
