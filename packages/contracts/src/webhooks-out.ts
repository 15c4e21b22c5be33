import { z } from 'zod';
import { adminLeadSchema } from './admin';

/*
 * Outgoing webhooks (issue 24): endpoints the owner registers in the admin panel, the events the site sends them,
 * and the delivery log. One schema checks the admin form, the API route and the documented payloads.
 */

export const WEBHOOK_EVENT_TYPES = ['lead.created', 'analysis.completed', 'post.published', 'post.updated', 'post.deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** What each event means, for the Integrations screen and the OpenAPI description. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'lead.created': 'A visitor sent the contact form (the fields you see in the leads inbox).',
  'analysis.completed': 'A visitor ran a new business analysis (business, location, score, report link).',
  'post.published': 'A post went live (from the admin panel, the n8n webhook or the scheduler).',
  'post.updated': 'A published post was saved again.',
  'post.deleted': 'A post was deleted.',
};

/** Headers of every delivery. The signature scheme is the one the site's incoming webhook verifies. */
export const WEBHOOK_HEADERS = {
  signature: 'X-Webhook-Signature',
  event: 'X-Webhook-Event',
  id: 'X-Webhook-Id',
} as const;

/** Retries stop this long after the event (and an endpoint failing this long is disabled). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** Endpoints one site can have (each event is one delivery per endpoint). */
export const WEBHOOK_MAX_ENDPOINTS = 20;

/** Bytes of a receiver's answer kept in the delivery log. */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 4096;

export const WEBHOOK_MESSAGES = {
  url: 'Enter an http:// or https:// address',
  urlCredentials: 'Put no user name or password in the address; verify the signature instead',
  urlMetadata: 'Link-local and cloud metadata addresses (169.254.x.x, fe80::, metadata.google.internal …) are never allowed',
  urlPrivate: 'Private and loopback addresses are allowed only when the server sets WEBHOOK_ALLOW_PRIVATE_TARGETS=true',
  events: 'Choose at least one event',
  notFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Delivery not found',
  tooMany: `At most ${WEBHOOK_MAX_ENDPOINTS} endpoints: delete one you no longer use first`,
} as const;

/*
 * Where a webhook is never sent, whatever the server's settings: link-local addresses (169.254.0.0/16, fe80::/10),
 * where clouds answer with their instance metadata and credentials, the other metadata addresses (AWS's IPv6
 * fd00:ec2::254, Alibaba's 100.100.100.200) and their host names. An IPv4 address written inside IPv6 (mapped
 * ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d) counts as that IPv4 address. The form and the API check
 * what was typed; the server checks again every address a name resolves to when it sends (DNS can change).
 */
export const WEBHOOK_METADATA_HOST_NAMES: readonly string[] = ['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal'];

function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/** The eight 16-bit groups of an IPv6 address (compressed, with a dotted IPv4 tail or a zone), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text.split('%')[0]!;
  const tailAt = address.lastIndexOf(':');
  const tail = ipv4Octets(address.slice(tailAt + 1));
  if (tail) address = `${address.slice(0, tailAt + 1)}${((tail[0]! << 8) | tail[1]!).toString(16)}:${((tail[2]! << 8) | tail[3]!).toString(16)}`;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

const isMetadataIpv4 = ([a, b, c, d]: number[]) => (a === 169 && b === 254) || (a === 100 && b === 100 && c === 100 && d === 200);

/**
 * Whether a host (a URL's hostname, or an address as a resolver or ipaddr.js writes it) is link-local or a cloud
 * metadata service: never a webhook target.
 */
export function isLinkLocalOrMetadataHost(host: string): boolean {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  while (name.endsWith('.')) name = name.slice(0, -1);
  if (WEBHOOK_METADATA_HOST_NAMES.includes(name)) return true;
  const v4 = ipv4Octets(name);
  if (v4) return isMetadataIpv4(v4);
  const g = name.includes(':') ? ipv6Groups(name) : undefined;
  if (!g) return false;
  if ((g[0]! & 0xffc0) === 0xfe80) return true;
  if (g.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':')) return true;
  const embedsIpv4 =
    (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0));
  return embedsIpv4 && isMetadataIpv4([g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff]);
}

export const webhookUrlSchema = z
  .string()
  .trim()
  .min(1, WEBHOOK_MESSAGES.url)
  .max(2000, WEBHOOK_MESSAGES.url)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, WEBHOOK_MESSAGES.url)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.username === '' && url.password === '';
    } catch {
      return true;
    }
  }, WEBHOOK_MESSAGES.urlCredentials)
  .refine((value) => {
    try {
      return !isLinkLocalOrMetadataHost(new URL(value).hostname);
    } catch {
      return true;
    }
  }, WEBHOOK_MESSAGES.urlMetadata);

/** `POST /api/admin/webhooks` body (the admin form). */
export const webhookEndpointCreateSchema = z.object({
  url: webhookUrlSchema,
  description: z.string().trim().max(200).default(''),
  events: z.array(webhookEventTypeSchema).min(1, WEBHOOK_MESSAGES.events).max(WEBHOOK_EVENT_TYPES.length),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointCreateInput = z.input<typeof webhookEndpointCreateSchema>;
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

/** `PATCH /api/admin/webhooks/:id` body: any field, and `regenerateSecret: true` for a new signing secret. */
export const webhookEndpointUpdateSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    description: z.string().trim().max(200).optional(),
    events: z.array(webhookEventTypeSchema).min(1, WEBHOOK_MESSAGES.events).max(WEBHOOK_EVENT_TYPES.length).optional(),
    enabled: z.boolean().optional(),
    regenerateSecret: z.literal(true).optional(),
  })
  .strict();
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

/** An endpoint as the admin panel sees it: the URL, never the secret. */
export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  /** Why the site turned it off (24 h of failures); null when enabled or turned off by hand. */
  disabledReason: z.string().nullable(),
  /** Since when every delivery failed; null while it answers. */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** Creation and regeneration answers: the one time the signing secret is shown. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One event sent to one endpoint, with its latest attempt. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  /** The event id: X-Webhook-Id, the same on every retry and redelivery. */
  eventId: z.string(),
  /** One of the events, or `webhook.test` (the screen's 'Send test event'). */
  event: z.enum([...WEBHOOK_EVENT_TYPES, 'webhook.test']),
  createdAt: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int().min(0),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status; null for a network error or no attempt yet. */
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** The first 4 KB of the answer, or the network error. */
  responseExcerpt: z.string().nullable(),
  /** Set on a redelivery: the delivery it repeats. */
  redeliveryOf: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const WEBHOOK_ATTEMPT_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;

/** One try of a delivery: delivered, failed and retried later (`retrying`), or failed for good. */
export const webhookAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  at: z.string(),
  outcome: z.enum(WEBHOOK_ATTEMPT_OUTCOMES),
  /** The receiver's HTTP status; null for a network error or timeout. */
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** The first 4 KB of the answer, or the network error. */
  responseExcerpt: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** Every attempt of one delivery, oldest first. */
export const webhookAttemptListSchema = z.object({ attempts: z.array(webhookAttemptSchema) });
export type WebhookAttemptList = z.infer<typeof webhookAttemptListSchema>;

// ------------------------------------------------------------------------------------------------ payloads

/** `lead.created`: the fields the owner sees in the leads inbox (not the browser, the status or the address hash). */
export const leadCreatedDataSchema = adminLeadSchema.pick({ id: true, createdAt: true, name: true, email: true, company: true, subject: true, message: true });
export const analysisCompletedDataSchema = z.object({
  id: z.string(),
  mode: z.enum(['smb', 'website']),
  businessName: z.string(),
  location: z.string().nullable(),
  /** The overall score, 0–100. */
  score: z.number(),
  analyzedAt: z.string(),
  reportUrl: z.string(),
});
export const postEventDataSchema = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  status: z.string(),
  category: z.string(),
  author: z.string(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The public page (null once deleted or while not published). */
  url: z.string().nullable(),
});

const envelope = <T extends WebhookEventType, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    /** The event id (also X-Webhook-Id): the same on every retry; use it to ignore repeats. */
    id: z.string(),
    type: z.literal(type),
    /** When the event happened (ISO 8601, UTC). */
    createdAt: z.string(),
    data,
  });

export const WEBHOOK_PAYLOAD_SCHEMAS = {
  'lead.created': envelope('lead.created', leadCreatedDataSchema),
  'analysis.completed': envelope('analysis.completed', analysisCompletedDataSchema),
  'post.published': envelope('post.published', postEventDataSchema),
  'post.updated': envelope('post.updated', postEventDataSchema),
  'post.deleted': envelope('post.deleted', postEventDataSchema),
} as const;
export type WebhookPayload = { [K in WebhookEventType]: z.infer<(typeof WEBHOOK_PAYLOAD_SCHEMAS)[K]> }[WebhookEventType];

const POST_EXAMPLE = {
  id: 'f3b0c2a4-1d2e-4c5b-9a8f-7e6d5c4b3a21',
  title: 'Five automations every Tri-Valley dental office should run',
  slug: 'five-automations-dental-offices',
  excerpt: 'Reminders, reviews and intake forms that run themselves.',
  status: 'published',
  category: 'Automation',
  author: 'Tri-Valley AI Automation',
  publishedAt: '2026-11-20T16:00:00.000Z',
  updatedAt: '2026-11-20T16:00:00.000Z',
  url: 'https://example.com/blog/five-automations-dental-offices',
};

/** One example per event (documented in OpenAPI and on the Integrations screen; a test parses each). */
export const WEBHOOK_PAYLOAD_EXAMPLES: { [K in WebhookEventType]: z.infer<(typeof WEBHOOK_PAYLOAD_SCHEMAS)[K]> } = {
  'lead.created': {
    id: 'evt_2b7f0c9e6a1d4f53b8e2',
    type: 'lead.created',
    createdAt: '2026-11-26T08:15:00.000Z',
    data: {
      id: '8d6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      createdAt: '2026-11-26T08:15:00.000Z',
      name: 'Jordan Lee',
      email: 'jordan@example.com',
      company: 'Lee Family Dental',
      subject: 'Appointment reminders',
      message: 'Could you automate our reminder texts?',
    },
  },
  'analysis.completed': {
    id: 'evt_5c1e9a7b3d2f4e60a1b4',
    type: 'analysis.completed',
    createdAt: '2026-11-26T08:20:00.000Z',
    data: {
      id: 'q2Vx8kLm3Np4Rs5T',
      mode: 'smb',
      businessName: 'Lee Family Dental',
      location: 'Pleasanton, CA',
      score: 62,
      analyzedAt: '2026-11-26T08:20:00.000Z',
      reportUrl: 'https://example.com/free-analysis/report/q2Vx8kLm3Np4Rs5T',
    },
  },
  'post.published': { id: 'evt_7a3d5f1c9e2b4a68c3d6', type: 'post.published', createdAt: '2026-11-20T16:00:00.000Z', data: POST_EXAMPLE },
  'post.updated': {
    id: 'evt_9e5b7d3a1c4f4b70d5e8',
    type: 'post.updated',
    createdAt: '2026-11-21T09:30:00.000Z',
    data: { ...POST_EXAMPLE, updatedAt: '2026-11-21T09:30:00.000Z' },
  },
  'post.deleted': {
    id: 'evt_1f7c9b5e3a6d4c82e7f0',
    type: 'post.deleted',
    createdAt: '2026-11-22T11:00:00.000Z',
    data: { ...POST_EXAMPLE, updatedAt: '2026-11-22T11:00:00.000Z', url: null },
  },
};

/** The event 'Send test event' delivers to one endpoint (never subscribed to): the same envelope, with a message. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_TEST_MESSAGE = 'A test event from the Integrations screen.';
export const webhookTestPayloadSchema = z.object({
  id: z.string(),
  type: z.literal(WEBHOOK_TEST_EVENT),
  createdAt: z.string(),
  data: z.object({ message: z.string() }),
});
export type WebhookTestPayload = z.infer<typeof webhookTestPayloadSchema>;
export const WEBHOOK_TEST_PAYLOAD_EXAMPLE: WebhookTestPayload = {
  id: 'evt_3c8a6e2f0b9d4e71a2c5',
  type: WEBHOOK_TEST_EVENT,
  createdAt: '2026-11-26T09:00:00.000Z',
  data: { message: WEBHOOK_TEST_MESSAGE },
};

/** The receiving side's check, in Node (shown on the Integrations screen and in the README). */
export const WEBHOOK_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string, before JSON.parse).
export function verifyWebhook(rawBody, signatureHeader, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(signatureHeader.split(',').map((p) => p.split('=', 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
  if (Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest();
  return timingSafeEqual(Buffer.from(parts.v1, 'hex'), expected);
}
// Then de-duplicate on the X-Webhook-Id header: a retry repeats the same id.`;
