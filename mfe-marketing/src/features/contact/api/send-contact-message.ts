import { contactResponseSchema, type ContactRequest } from '@site/contracts/contact';
import { errorEnvelopeSchema } from '@site/contracts/error';

/** What the form needs to know about one attempt to send. */
export type SendResult =
  | { kind: 'sent'; message?: string }
  | { kind: 'rejected'; message?: string }
  | { kind: 'network' };

/**
 * POST /api/contact. Never throws: a network or parse failure is `network`; a refusal (the API's error envelope,
 * or an answer with `success: false`) is `rejected` with the server's message if it gave one.
 */
export async function sendContactMessage(payload: ContactRequest & { website?: string }, signal?: AbortSignal): Promise<SendResult> {
  let res: Response;
  let body: unknown;
  try {
    res = await fetch('/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload),
      signal,
    });
    body = await res.json();
  } catch {
    return { kind: 'network' };
  }
  const envelope = errorEnvelopeSchema.safeParse(body);
  if (!res.ok && envelope.success) return { kind: 'rejected', message: envelope.data.error.message || undefined };
  const parsed = contactResponseSchema.safeParse(body);
  if (!parsed.success) {
    // An answer we cannot read: an error status still tells us the server refused.
    return res.ok ? { kind: 'network' } : { kind: 'rejected' };
  }
  if (parsed.data.success && res.ok) return { kind: 'sent', message: parsed.data.message };
  return { kind: 'rejected', message: parsed.data.message || undefined };
}
