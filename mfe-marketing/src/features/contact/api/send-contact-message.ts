import { contactResponseSchema, IDEMPOTENCY_KEY_HEADER, type ContactRequest } from '@site/contracts/contact';
import { errorEnvelopeSchema } from '@site/contracts/error';

/** What the form needs to know about one attempt to send. */
export type SendResult =
  | { kind: 'sent'; message?: string }
  | { kind: 'rejected'; message?: string }
  | { kind: 'network' };

/** A new Idempotency-Key for one submission: a UUID (crypto.randomUUID needs a secure context; the fallback does not). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface SendOptions {
  /** The submission's key (newIdempotencyKey): the same for every send of the same submission. */
  idempotencyKey: string;
  signal?: AbortSignal;
}

/**
 * POST /api/contact with the submission's `Idempotency-Key`, sent again once at once when the request fails on the
 * way (fetch rejects: a reset connection, a blip offline): the server stores one message per key, so a first request
 * that did arrive is not stored twice. An answer, even a refusal or a 5xx, is never sent again here.
 * Never throws: a network or parse failure is `network`; a refusal (the API's error envelope, or an answer with
 * `success: false`) is `rejected` with the server's message if it gave one.
 */
export async function sendContactMessage(payload: ContactRequest & { website?: string }, { idempotencyKey, signal }: SendOptions): Promise<SendResult> {
  const send = () =>
    fetch('/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      body: JSON.stringify(payload),
      signal,
    });
  let res: Response;
  let body: unknown;
  try {
    res = await send().catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return send();
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
