import { z } from 'zod';

/** What the admin dashboard reads (`/api/admin/funnel`, `/health`, `/traffic`, `/docker`, `/vulnerabilities`). */

// ----------------------------------------------------------------------------------------------- funnel

export const FUNNEL_WINDOWS = [7, 30] as const;

const funnelCountsSchema = z.object({
  analysesStarted: z.number().int().min(0),
  analysesCompleted: z.number().int().min(0),
  analysesErrored: z.number().int().min(0),
  /** Contact messages stored (the inbox's leads, from the form or the API), by the day they arrived; not browser events. */
  contactSubmits: z.number().int().min(0),
  pageViews: z.number().int().min(0),
});
export type FunnelCounts = z.infer<typeof funnelCountsSchema>;

const viewCount = z.number().int().min(0);
/** Page views by where they came from (the class the browser sent; views sent without one are in `pageViews` only). */
export const funnelReferrersSchema = z.object({ direct: viewCount, internal: viewCount, search: viewCount, social: viewCount, other: viewCount });
export type FunnelReferrers = z.infer<typeof funnelReferrersSchema>;

export const funnelWindowSchema = funnelCountsSchema.extend({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Most viewed paths (page_view events), at most 10. */
  topPages: z.array(z.object({ path: z.string(), views: z.number().int().min(0) })),
  // A server from before page views had a class answers without it: all zero.
  referrers: funnelReferrersSchema.default({ direct: 0, internal: 0, search: 0, social: 0, other: 0 }),
  /** One entry per UTC day of the window, oldest first, for the chart. */
  daily: z.array(funnelCountsSchema.extend({ date: z.string() })),
});
export type FunnelWindow = z.infer<typeof funnelWindowSchema>;

/** `GET /api/admin/funnel`: the last 7 and the last 30 days, from the stored tracking events and contact messages. */
export const adminFunnelSchema = z.object({ windows: z.array(funnelWindowSchema) });
export type AdminFunnel = z.infer<typeof adminFunnelSchema>;

// ----------------------------------------------------------------------------------------------- health

export const HEALTH_STATUSES = ['ok', 'warning', 'down', 'unknown'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
export const HEALTH_CHECK_KINDS = ['database', 'remote', 'outbox', 'disk', 'memory', 'cpu'] as const;

export const healthCheckSchema = z.object({
  /** Stable id: `database`, `remote:blog`, `shell`, `outbox`, `disk`, `memory`, `cpu`. */
  id: z.string(),
  kind: z.enum(HEALTH_CHECK_KINDS),
  /** Human label, e.g. 'Database', 'Remote: blog', 'Disk (data volume)'. */
  name: z.string(),
  status: z.enum(HEALTH_STATUSES),
  /** Time the check took (database round trip, remoteEntry.js answer), when it measures one. */
  responseTimeMs: z.number().min(0).nullable(),
  /** A percentage (disk, memory, cpu) or a count (outbox backlog), when the check has one. */
  value: z.number().nullable(),
  unit: z.enum(['percent', 'messages', 'ms']).nullable(),
  /** Remote version from its manifest. */
  version: z.string().nullable(),
  /** One sentence: what was found. */
  message: z.string(),
  checkedAt: z.string(),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

/**
 * Which provider keys the free analysis tool has: without one, its part of every scorecard is sample data. Says
 * whether each is set, never its value.
 */
export const analysisDataSourceSchema = z.object({
  /** The environment variable that turns this source's sample data into real data. */
  key: z.enum(['GOOGLE_PLACES_API_KEY', 'YELP_API_KEY']),
  /** What it provides, in the owner's words. */
  provides: z.string(),
  configured: z.boolean(),
});
export type AnalysisDataSource = z.infer<typeof analysisDataSourceSchema>;

/** `GET /api/admin/health` (latest stored results) and `POST /api/admin/health/refresh` (runs them now). */
export const adminHealthSchema = z.object({
  /** Worst status of all checks; `unknown` before the first run. */
  status: z.enum(HEALTH_STATUSES),
  checkedAt: z.string().nullable(),
  checks: z.array(healthCheckSchema),
  /** The analysis tool's provider keys, configured or not (the server's configuration now, not a stored result). */
  analysisData: z.array(analysisDataSourceSchema).optional(),
});
export type AdminHealth = z.infer<typeof adminHealthSchema>;

// ---------------------------------------------------------------------------------------------- traffic

export const TRAFFIC_CLASSES = ['legitimate', 'suspicious', 'normal'] as const;
export type TrafficClass = (typeof TRAFFIC_CLASSES)[number];

/** One client address of the recent requests (kept in memory, bounded, last hour). */
export const trafficEntrySchema = z.object({
  address: z.string(),
  /** legitimate: private, local or container range; suspicious: flagged by a rule; normal: public, unflagged. */
  classification: z.enum(TRAFFIC_CLASSES),
  /** Why: 'private range', 'loopback', 'many 4xx answers', 'rate limited'… */
  reason: z.string(),
  requests: z.number().int().min(0),
  clientErrors: z.number().int().min(0),
  serverErrors: z.number().int().min(0),
  rateLimited: z.number().int().min(0),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type TrafficEntry = z.infer<typeof trafficEntrySchema>;

/** `GET /api/admin/traffic`: suspicious first, then by requests. */
export const adminTrafficSchema = z.object({
  windowMinutes: z.number().int(),
  entries: z.array(trafficEntrySchema),
  totals: z.object({
    addresses: z.number().int(),
    requests: z.number().int(),
    suspicious: z.number().int(),
    legitimate: z.number().int(),
  }),
});
export type AdminTraffic = z.infer<typeof adminTrafficSchema>;

// --------------------------------------------------------------------------------- docker, vulnerabilities

const unavailableSchema = z.object({ available: z.literal(false), reason: z.string() });

export const dockerContainerSchema = z.object({
  id: z.string(),
  name: z.string(),
  image: z.string(),
  /** Docker's state: running, exited, restarting… */
  status: z.string(),
  health: z.enum(['healthy', 'unhealthy', 'starting', 'none']),
  /** e.g. '3000/tcp', '0.0.0.0:8080->3000/tcp' */
  ports: z.array(z.string()),
  lastCheck: z.string(),
});
export type DockerContainer = z.infer<typeof dockerContainerSchema>;

/** `GET /api/admin/docker`: containers from the Docker socket when mounted, else `available: false`. */
export const dockerSummarySchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    total: z.number().int(),
    running: z.number().int(),
    healthy: z.number().int(),
    unhealthy: z.number().int(),
    containers: z.array(dockerContainerSchema),
    checkedAt: z.string(),
  }),
  unavailableSchema,
]);
export type DockerSummary = z.infer<typeof dockerSummarySchema>;

/** `GET /api/admin/vulnerabilities`: counts from the dependency audit report written at build time, if any. */
export const vulnerabilitySummarySchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    critical: z.number().int().min(0),
    high: z.number().int().min(0),
    moderate: z.number().int().min(0),
    low: z.number().int().min(0),
    total: z.number().int().min(0),
    /** When the audit ran (the report file's time). */
    generatedAt: z.string(),
    source: z.string(),
  }),
  unavailableSchema,
]);
export type VulnerabilitySummary = z.infer<typeof vulnerabilitySummarySchema>;
