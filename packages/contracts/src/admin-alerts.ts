import { z } from 'zod';

/** The admin API's alerts (`/api/admin/alerts/*`): settings per type and the history. */

// ----------------------------------------------------------------------------------------------- alerts

/** Spec section 3: groups and their settings. Thresholds only on infrastructure. */
export const ALERT_GROUPS = {
  git: ['deployment', 'newCommit', 'serverUpdate'],
  infrastructure: ['diskSpace', 'memory', 'cpu'],
  security: ['failedLogins', 'hackAttempts', 'vulnerabilityScan'],
  application: ['healthCheck', 'errors', 'performance', 'webhookDelivery'],
} as const;
export type AlertGroup = keyof typeof ALERT_GROUPS;
export const ALERT_TYPES = [
  'deployment',
  'newCommit',
  'serverUpdate',
  'diskSpace',
  'memory',
  'cpu',
  'failedLogins',
  'hackAttempts',
  'vulnerabilityScan',
  'healthCheck',
  'errors',
  'performance',
  'webhookDelivery',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const alertTypeSchema = z.enum(ALERT_TYPES);
export const THRESHOLD_ALERT_TYPES = ['diskSpace', 'memory', 'cpu'] as const;
export type ThresholdAlertType = (typeof THRESHOLD_ALERT_TYPES)[number];
/** Spec section 9: default thresholds in percent. */
export const DEFAULT_THRESHOLDS: Record<ThresholdAlertType, number> = { diskSpace: 85, memory: 90, cpu: 90 };

/** Labels for the settings screen. */
export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  deployment: 'Deployment',
  newCommit: 'New commit',
  serverUpdate: 'Server update',
  diskSpace: 'Disk space',
  memory: 'Memory',
  cpu: 'CPU',
  failedLogins: 'Failed logins',
  hackAttempts: 'Hack attempts',
  vulnerabilityScan: 'Vulnerability scan',
  healthCheck: 'Health check',
  errors: 'Errors',
  performance: 'Performance',
  webhookDelivery: 'Outgoing webhooks',
};

export const THRESHOLD_MESSAGE = 'Threshold must be a whole number from 1 to 100';
/** A threshold in percent: a whole number 1–100 (spec section 5). Same schema in the form and the API. */
export const alertThresholdSchema = z
  .number({ error: THRESHOLD_MESSAGE })
  .int({ error: THRESHOLD_MESSAGE })
  .min(1, { error: THRESHOLD_MESSAGE })
  .max(100, { error: THRESHOLD_MESSAGE });

/** Parses what a person typed in a threshold input ('85' -> 85); 'abc', '', '0', '101', '8.5' fail. */
export const alertThresholdInputSchema = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, { error: THRESHOLD_MESSAGE })
  .transform(Number)
  .pipe(alertThresholdSchema);

export const alertSettingSchema = z.object({
  type: alertTypeSchema,
  group: z.enum(Object.keys(ALERT_GROUPS) as [AlertGroup, ...AlertGroup[]]),
  enabled: z.boolean(),
  /** Email the owner when this alert is raised (needs SMTP_URL on the server). */
  email: z.boolean(),
  /** Only diskSpace, memory, cpu. */
  threshold: alertThresholdSchema.nullable(),
});
export type AlertSetting = z.infer<typeof alertSettingSchema>;

/** `GET /api/admin/alerts/settings`: one entry per ALERT_TYPES, in that order. */
export const alertSettingsSchema = z.object({
  settings: z.array(alertSettingSchema),
  /** Whether the server can email alerts (SMTP_URL set). */
  emailConfigured: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/**
 * `PATCH /api/admin/alerts/settings/:type` body: any of enabled, email, threshold (threshold only for
 * diskSpace/memory/cpu, 400 otherwise; 0, 101, 'abc' -> 400). Answers `alertSettingsSchema`.
 */
export const alertSettingUpdateSchema = z
  .object({ enabled: z.boolean().optional(), email: z.boolean().optional(), threshold: alertThresholdSchema.optional() })
  .strict()
  .refine((v) => v.enabled !== undefined || v.email !== undefined || v.threshold !== undefined, {
    error: 'Send enabled, email or threshold',
  });
export type AlertSettingUpdate = z.infer<typeof alertSettingUpdateSchema>;

export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Spec section 3 alert history entry, plus what the server knows about it. */
export const alertEntrySchema = z.object({
  id: z.string(),
  type: alertTypeSchema,
  severity: z.enum(ALERT_SEVERITIES),
  title: z.string(),
  message: z.string(),
  /** Extra facts (figures, addresses, paths), shown under the message. */
  detail: z.string().nullable(),
  timestamp: z.string(),
  emailSent: z.boolean(),
  acknowledged: z.boolean(),
  acknowledgedAt: z.string().nullable(),
});
export type AlertEntry = z.infer<typeof alertEntrySchema>;

/** `GET /api/admin/alerts?limit=` (newest first, default 100, at most 500). */
export const alertHistoryQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(500).default(100),
});
export const alertHistorySchema = z.object({
  alerts: z.array(alertEntrySchema),
  total: z.number().int().min(0),
  unacknowledged: z.number().int().min(0),
});
export type AlertHistory = z.infer<typeof alertHistorySchema>;
// `POST /api/admin/alerts/:id/acknowledge`: answers `alertEntrySchema`; unknown id -> 404 'Alert not found'.
// `DELETE /api/admin/alerts`: clears the history, 204.
