import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { blogPostPath } from '@site/contracts/blog-routes';
import { adminEditPostPath, type WebhookResult } from '@site/contracts/posts';
import type { WebhookDeliveriesRepository } from '../posts/posts-repository';
import { ConflictError, InvalidInputError, UnauthorizedError, UnavailableError } from '../lib/domain-errors';
import type { Clock } from '../lib/clock';
import { PostValidationError, type PostService } from '../posts/post-service';
import type { MediaItem } from '@site/contracts/media';
import type { RemoteImageImporter } from '../media/import-remote-image';

/** How far the signed timestamp may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** How long a delivery's first answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const SIGNATURE_HEADER = 'X-Webhook-Signature';
/** A delivery claimed but never answered for this long is taken as abandoned (its server stopped mid-way). */
const ABANDONED_CLAIM_MS = 60_000;

export type SignatureCheck =
  | { ok: true; timestamp: number; signature: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

/** `t=<unix>,v1=<hex>` for a body: what a sender (n8n, curl, tests) puts in X-Webhook-Signature. */
export function signWebhookBody(secret: string, rawBody: string, timestamp: number): string {
  const hex = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${hex}`;
}

/**
 * Checks `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` in constant time. Several `v1` values
 * are accepted (one may be signed with the previous secret during a rotation).
 */
export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header || !header.trim()) return { ok: false, reason: 'missing' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: 'expired' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  let match: string | undefined;
  for (const candidate of candidates) {
    // Every candidate is compared, matched or not, so timing says nothing about which one matched.
    if (timingSafeEqual(Buffer.from(candidate, 'hex'), expected) && match === undefined) match = candidate;
  }
  return match ? { ok: true, timestamp, signature: match } : { ok: false, reason: 'mismatch' };
}

const REASON_MESSAGES: Record<Exclude<SignatureCheck, { ok: true }>['reason'], string> = {
  missing: `Missing ${SIGNATURE_HEADER} header. Sign the raw body: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">.`,
  malformed: `Malformed ${SIGNATURE_HEADER} header. Expected t=<unix seconds>,v1=<64 hex characters>.`,
  expired: `The signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds away from the server time.`,
  mismatch: 'The webhook signature does not match the body.',
};

const IMAGE_FIELDS = ['featuredImage', 'ogImage'] as const;

/**
 * With `storeImages: true`, each http(s) image URL of the body is fetched once and replaced by its media-library copy
 * (the featured image by its media URL, the OG image by its 1200x630 JPEG). A URL that cannot be stored refuses the
 * delivery (400 `image_import_failed`), saying which field and why, and nothing is created.
 */
/** `storeImages` is the webhook's own field (the post service ignores it): true, false or absent, as the contract says. */
function checkStoreImagesFlag(body: unknown) {
  const flag = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).storeImages : undefined;
  if (flag === undefined || typeof flag === 'boolean') return;
  throw new InvalidInputError('Validation failed: storeImages must be true or false', { details: [{ path: 'storeImages', message: 'must be true or false' }] });
}

async function storeImages(body: unknown, importImage: RemoteImageImporter): Promise<unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  if (fields.storeImages !== true) return body;
  const out: Record<string, unknown> = { ...fields };
  const stored = new Map<string, Promise<MediaItem>>();
  for (const field of IMAGE_FIELDS) {
    const url = fields[field];
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) continue;
    const key = url.trim();
    if (!stored.has(key)) stored.set(key, importImage(key));
    try {
      const media = await stored.get(key)!;
      out[field] = field === 'ogImage' ? media.ogUrl : media.url;
    } catch (error) {
      // Images busy (the processing queue is full): the sender retries after Retry-After, as with any 503.
      if (error instanceof UnavailableError) throw error;
      const reason = error instanceof Error ? error.message.replace(/^This website cannot be analyzed: /, '') : 'unknown error';
      throw new InvalidInputError(`Validation failed: ${field} could not be stored (${reason})`, {
        code: 'image_import_failed',
        details: [{ field, message: reason, received: key }],
      });
    }
  }
  return out;
}

export interface WebhookDelivery {
  rawBody: string;
  body: unknown;
  signature: string | undefined;
  idempotencyKey: string | undefined;
}

export interface WebhookService {
  /** Creates a post from a signed delivery; `replayed` when the answer is the stored first result. */
  receive(delivery: WebhookDelivery): Promise<{ result: WebhookResult; replayed: boolean }>;
}

export function createWebhookService(deps: {
  secret: string | undefined;
  posts: PostService;
  deliveries: WebhookDeliveriesRepository;
  clock: Clock;
  publicOrigin: string;
  /** Stores an image URL in the media library (the body's `storeImages: true`); without it the option is ignored. */
  importImage?: RemoteImageImporter;
}): WebhookService {
  // No in-process lock: the claims below are rows under a unique key, so the database decides which of two racing
  // deliveries (on this instance or another) goes ahead; the other finds the claim and is told to retry.
  const inProgress = () =>
    new ConflictError('This delivery is being processed right now. Retry in a few seconds to get its result.', {
      code: 'delivery_in_progress',
    });

  /** The stored answer for the first of `keys` already seen (signature first), or undefined. */
  async function firstKnown(keys: readonly string[], bodyHash: string): Promise<{ result: WebhookResult; replayed: true } | undefined> {
    const known = await deps.deliveries.find(keys);
    for (const key of keys) {
      const previous = known.get(key);
      if (!previous) continue;
      if (previous.bodyHash !== bodyHash) {
        throw new ConflictError('This Idempotency-Key was already used with a different body. Use a new key for a new post.', {
          code: 'idempotency_conflict',
        });
      }
      if (previous.result === '') {
        // A claim whose instance died before answering: forget it, so the sender's retry goes through.
        if (Date.parse(previous.createdAt) < deps.clock().getTime() - ABANDONED_CLAIM_MS) {
          await deps.deliveries.release([key]);
          continue;
        }
        throw inProgress();
      }
      return { result: JSON.parse(previous.result) as WebhookResult, replayed: true };
    }
    return undefined;
  }

  return {
    async receive(delivery) {
      if (!deps.secret) {
        throw new UnavailableError('The webhook is disabled: WEBHOOK_SECRET is not configured on the server.', {
          code: 'webhook_disabled',
        });
      }
      const now = deps.clock();
      const check = verifyWebhookSignature(delivery.signature, delivery.rawBody, deps.secret, now.getTime());
      if (!check.ok) throw new UnauthorizedError(REASON_MESSAGES[check.reason], { code: 'invalid_signature' });

      // Replay memory, in the database (shared by every instance): a signature (t, v1) is accepted once, whatever
      // Idempotency-Key comes with it (the key is not signed); the key lets a sender retry with a fresh signature.
      const keys = [`sig:${check.timestamp}:${check.signature}`];
      if (delivery.idempotencyKey) keys.push(`key:${delivery.idempotencyKey}`);
      const bodyHash = createHash('sha256').update(delivery.rawBody).digest('hex');
      await deps.deliveries.prune(new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString());
      const previous = await firstKnown(keys, bodyHash);
      if (previous) return previous;
      // Claim every key before creating the post: another instance racing with the same delivery finds the claim.
      const claimed = await deps.deliveries.claim(keys, { bodyHash, createdAt: now.toISOString() });
      if (claimed.length < keys.length) {
        await deps.deliveries.release(claimed);
        const winner = await firstKnown(keys, bodyHash);
        if (winner) return winner;
        throw inProgress();
      }
      let post;
      try {
        checkStoreImagesFlag(delivery.body);
        const body = deps.importImage ? await storeImages(delivery.body, deps.importImage) : delivery.body;
        post = await deps.posts.create(body, { source: 'n8n', allowStatus: true, actor: { kind: 'webhook', source: 'n8n' } });
      } catch (error) {
        // A refused delivery leaves no trace: the sender may fix it and retry with the same key.
        await deps.deliveries.release(claimed);
        if (error instanceof PostValidationError) {
          // The spec's sentence ('Validation failed: ' and its messages joined by ', '), word for word what the admin
          // form gets; what an n8n user fixes (each field, its rule, what was received) stays in `details`.
          throw new InvalidInputError(error.message, { details: error.issues });
        }
        throw error;
      }
      const result: WebhookResult = {
        id: post.id,
        slug: post.slug,
        status: post.status,
        // A draft has no public page yet: its link would answer 404 until it is published in the admin panel.
        ...(post.status === 'published' ? { url: `${deps.publicOrigin}${blogPostPath(post.slug)}` } : {}),
        adminUrl: `${deps.publicOrigin}${adminEditPostPath(post.id)}`,
        ...(post.status === 'scheduled' && post.publishAt ? { publishAt: post.publishAt } : {}),
      };
      await deps.deliveries.complete(claimed, JSON.stringify(result));
      return { result, replayed: false };
    },
  };
}
