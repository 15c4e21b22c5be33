import { z } from 'zod';
import { CONTACT_EMAIL_INVALID, CONTACT_LIMITS, CONTACT_MESSAGE_MIN, type ContactField } from './contact-limits';
import { errorEnvelopeSchema } from './error';
import { safeChars } from './text';

export { CONTACT_EMAIL_INVALID, CONTACT_LIMITS, CONTACT_MESSAGE_MIN, type ContactField };

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .apply(safeChars())
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * The contact form payload (spec section 3): name, email and message required; company and subject optional.
 * `website` is a honeypot: invisible to people, filled in by bots, and a filled one is dropped silently.
 */
export const contactRequestSchema = z.object({
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, { message: 'Name is required' })
    .max(CONTACT_LIMITS.name, { message: `Name must be at most ${CONTACT_LIMITS.name} characters` })
    .apply(safeChars({ minLength: 1 })),
  email: z
    .string({ message: 'Email is required' })
    .trim()
    .min(1, { message: 'Email is required' })
    .max(CONTACT_LIMITS.email, { message: `Email must be at most ${CONTACT_LIMITS.email} characters` })
    .apply(safeChars())
    .pipe(z.email({ message: CONTACT_EMAIL_INVALID }))
    // The description of the input side: the address format and zod's own e-mail rule, which refuses control characters too.
    .meta({ format: 'email', pattern: z.regexes.email.source }),
  company: optionalText(CONTACT_LIMITS.company, 'Company'),
  subject: optionalText(CONTACT_LIMITS.subject, 'Subject'),
  message: z
    .string({ message: 'Message is required' })
    .trim()
    .min(1, { message: 'Message is required' })
    .min(CONTACT_MESSAGE_MIN, { message: `Please add a little more detail (at least ${CONTACT_MESSAGE_MIN} characters)` })
    .max(CONTACT_LIMITS.message, { message: `Message must be at most ${CONTACT_LIMITS.message} characters` })
    .apply(safeChars({ multiline: true, minLength: CONTACT_MESSAGE_MIN })),
  website: z.string().max(500).optional(),
});
export type ContactRequestInput = z.input<typeof contactRequestSchema>;
export type ContactRequest = z.output<typeof contactRequestSchema>;

/** The header a contact submission carries its idempotency key in. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The contact form's `Idempotency-Key`: one per submission, kept when it is sent again (a UUID passes). Optional, so
 * API callers without one are served as before.
 */
export const contactIdempotencyKeySchema = z
  .string()
  .regex(/^[\w-]{8,100}$/, { message: "must be 8 to 100 letters, digits, '-' or '_' (a UUID, for instance)" })
  .optional();

/** The answer of POST /api/contact (spec section 7). Failures also carry the error envelope. */
export const contactResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
});
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** The spec's words for a contact failure that has no more precise message (section 8). */
export const CONTACT_FAILED_MESSAGE = 'Failed to send message. Please try again.';

/**
 * Every failed POST /api/contact (400, 413, 415, 429, 5xx): the spec's `{ success: false, message }` (section 7; the
 * form shows `message`) beside the one error envelope, whose `error.message` is the same sentence.
 */
export const contactErrorResponseSchema = errorEnvelopeSchema.extend({
  success: z.literal(false),
  message: z.string().min(1),
});
export type ContactErrorResponse = z.infer<typeof contactErrorResponseSchema>;

/** Per-field messages of a failed parse, first message per field, for showing next to the inputs. */
export function contactFieldErrors(error: z.ZodError): Partial<Record<ContactField, string>> {
  const out: Partial<Record<ContactField, string>> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && key !== 'website' && !(key in out)) out[key as ContactField] = issue.message;
  }
  return out;
}
