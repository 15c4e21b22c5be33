import { contactResponseSchema, type ContactRequest } from '@site/contracts/contact';

/** What the form needs to know about one attempt to send. */
export type SendResult =
  | { kind: 'sent'; message?: string }
  | { kind: 'rejected'; message?: string }
  | { kind: 'network' };

/**
 * POST /api/contact. Never throws: a network or parse failure is `network`, an answer with
 * `success: false` (or an error answer without one) is `rejected` with the server's message if it gave one.
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
  const parsed = contactResponseSchema.safeParse(body);
  if (!parsed.success) {
    // An answer we cannot read as the contract: an error envelope still tells us the server refused.
    return res.ok ? { kind: 'network' } : { kind: 'rejected' };
  }
  if (parsed.data.success && res.ok) return { kind: 'sent', message: parsed.data.message };
  return { kind: 'rejected', message: parsed.data.message || undefined };
}
