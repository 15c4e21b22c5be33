import { randomUUID } from 'node:crypto';
import {
  ADMIN_MESSAGES,
  ALERT_GROUPS,
  ALERT_TYPE_LABELS,
  ALERT_TYPES,
  DEFAULT_THRESHOLDS,
  THRESHOLD_ALERT_TYPES,
  type AlertEntry,
  type AlertGroup,
  type AlertHistory,
  type AlertSetting,
  type AlertSettings,
  type AlertSettingUpdate,
  type AlertSeverity,
  type AlertType,
  type ThresholdAlertType,
} from '@site/contracts/admin';
import type { AlertsRepository, StoredAlert } from './alerts-repository';
import type { LeasesRepository } from '../db/leases-repository';
import type { Clock } from '../lib/clock';
import { InvalidInputError, NotFoundError } from '../lib/domain-errors';
import type { Logger } from '../lib/logger';
import { mailMessageId, type Mailer } from '../lib/mailer';
import { isRecordKey } from '@site/contracts/text';

/** At most one mail per alert type per 15 minutes. */
export const ALERT_MAIL_INTERVAL_MS = 15 * 60_000;
/** The history keeps this many alerts (oldest dropped). */
const HISTORY_LIMIT = 1000;

export interface RaiseAlert {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  detail?: string;
  /**
   * Identifies the condition (e.g. `remote:blog`, an address). While the same key was raised less than `cooldownMs`
   * ago, a new raise is not stored again (a failing check every minute is one alert, not sixty an hour).
   */
  key?: string;
  cooldownMs?: number;
}

export interface AlertService {
  settings(): Promise<AlertSettings>;
  /** One setting of a type (defaults when never changed). */
  setting(type: AlertType): Promise<AlertSetting>;
  updateSetting(type: AlertType, update: AlertSettingUpdate): Promise<AlertSettings>;
  /** Thresholds in percent for disk, memory and cpu. */
  thresholds(): Promise<Record<ThresholdAlertType, number>>;
  /** Stores an alert when its type is enabled (and the key is not cooling down); emails it when allowed. */
  raise(alert: RaiseAlert): Promise<AlertEntry | undefined>;
  /** Fire-and-forget form of `raise` for hooks (errors, logins): failures are logged, never thrown. */
  notify(alert: RaiseAlert): void;
  history(limit: number): Promise<AlertHistory>;
  acknowledge(id: string): Promise<AlertEntry>;
  clear(): Promise<void>;
  /** Waits for alerts being stored or mailed (tests, shutdown). */
  idle(): Promise<void>;
}

export interface AlertServiceDeps {
  alerts: AlertsRepository;
  /** Mail slots: one alert mail per type per 15 minutes across every instance (a lease per type). */
  slots: Pick<LeasesRepository, 'acquire' | 'release'>;
  clock: Clock;
  logger: Logger;
  /** Without a mailer alerts are stored only. */
  mailer?: Mailer;
  mailTo: string;
  mailFrom: string;
  /** The site's public origin: its host names each alert mail's Message-ID (`<alert-<id>@host>`). */
  publicOrigin?: string;
  newId?: () => string;
}

const groupOf = (type: AlertType): AlertGroup =>
  (Object.keys(ALERT_GROUPS) as AlertGroup[]).find((g) => (ALERT_GROUPS[g] as readonly string[]).includes(type))!;
const isThresholdType = (type: AlertType): type is ThresholdAlertType => (THRESHOLD_ALERT_TYPES as readonly string[]).includes(type);

/** Build/version notices are not worth a mail by default; everything that needs a person is. */
const DEFAULT_EMAIL: Record<AlertType, boolean> = {
  deployment: false,
  newCommit: false,
  serverUpdate: false,
  diskSpace: true,
  memory: true,
  cpu: true,
  failedLogins: true,
  hackAttempts: true,
  vulnerabilityScan: true,
  healthCheck: true,
  errors: true,
  performance: false,
  webhookDelivery: true,
};

export function toAlertEntry(a: StoredAlert): AlertEntry {
  return {
    id: a.id,
    type: a.type,
    severity: a.severity,
    title: a.title,
    message: a.message,
    detail: a.detail,
    timestamp: a.createdAt,
    emailSent: a.emailSent,
    acknowledged: a.acknowledgedAt !== null,
    acknowledgedAt: a.acknowledgedAt,
  };
}

export function createAlertService(deps: AlertServiceDeps): AlertService {
  const newId = deps.newId ?? randomUUID;
  const lastRaised = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => {});
    return p;
  };

  async function allSettings(): Promise<AlertSetting[]> {
    const stored = new Map((await deps.alerts.listSettings()).map((s) => [s.type, s]));
    return ALERT_TYPES.map((type) => {
      const s = stored.get(type);
      return {
        type,
        group: groupOf(type),
        enabled: s?.enabled ?? true,
        email: s?.email ?? DEFAULT_EMAIL[type],
        threshold: isThresholdType(type) ? (s?.threshold ?? DEFAULT_THRESHOLDS[type]) : null,
      };
    });
  }

  const settingsAnswer = async (): Promise<AlertSettings> => ({ settings: await allSettings(), emailConfigured: Boolean(deps.mailer) });

  async function mail(alert: StoredAlert) {
    if (!deps.mailer) return;
    const last = await deps.alerts.lastEmailAt(alert.type);
    const now = deps.clock().getTime();
    if (last && now - Date.parse(last) < ALERT_MAIL_INTERVAL_MS) return;
    // The type's mail slot for the next 15 minutes: one atomic claim, so of two alerts of one type (in this process or
    // on another instance) exactly one is mailed.
    const slot = `alert-mail:${alert.type}`;
    const holder = newId();
    if (!(await deps.slots.acquire(slot, holder, new Date(now).toISOString(), new Date(now + ALERT_MAIL_INTERVAL_MS).toISOString()))) return;
    try {
      await deps.mailer.send({
        to: deps.mailTo,
        from: deps.mailFrom,
        messageId: mailMessageId('alert', alert.id, deps.publicOrigin ?? ''),
        subject: `[${alert.severity.toUpperCase()}] ${alert.title}`.replace(/[\r\n]+/g, ' ').slice(0, 200),
        text: [
          `${ALERT_TYPE_LABELS[alert.type]} alert (${alert.severity}) at ${alert.createdAt}.`,
          '',
          alert.message,
          ...(alert.detail ? ['', alert.detail] : []),
          '',
          'At most one mail per alert type is sent every 15 minutes; the admin panel lists every alert.',
        ].join('\n'),
      });
      await deps.alerts.markEmailSent(alert.id, deps.clock().toISOString());
    } catch (err) {
      deps.logger.warn({ err, alertId: alert.id }, 'could not email an alert');
      // Not sent: the next alert of this type may try.
      await deps.slots.release(slot, holder).catch(() => undefined);
    }
  }

  async function raise(input: RaiseAlert): Promise<AlertEntry | undefined> {
    const setting = (await allSettings()).find((s) => s.type === input.type)!;
    if (!setting.enabled) return undefined;
    const now = deps.clock().getTime();
    const key = `${input.type}:${input.key ?? ''}`;
    const last = lastRaised.get(key);
    if (input.cooldownMs && last !== undefined && now - last < input.cooldownMs) return undefined;
    lastRaised.set(key, now);
    if (lastRaised.size > 5000) lastRaised.delete(lastRaised.keys().next().value!);

    const alert: StoredAlert = {
      id: newId(),
      type: input.type,
      severity: input.severity,
      title: input.title.slice(0, 200),
      message: input.message.slice(0, 2000),
      detail: input.detail ? input.detail.slice(0, 4000) : null,
      createdAt: new Date(now).toISOString(),
      emailSent: false,
      emailSentAt: null,
      acknowledgedAt: null,
    };
    await deps.alerts.insert(alert);
    deps.logger.warn({ alertType: alert.type, severity: alert.severity, title: alert.title }, 'alert raised');
    if (setting.email) await track(mail(alert));
    await deps.alerts.prune(HISTORY_LIMIT);
    return toAlertEntry((await deps.alerts.findById(alert.id)) ?? alert);
  }

  return {
    settings: settingsAnswer,

    async setting(type) {
      return (await allSettings()).find((s) => s.type === type)!;
    },

    async updateSetting(type, update) {
      if (update.threshold !== undefined && !isThresholdType(type)) {
        throw new InvalidInputError(`${ALERT_TYPE_LABELS[type]} has no threshold`, {
          details: [{ path: 'threshold', message: `${ALERT_TYPE_LABELS[type]} has no threshold` }],
        });
      }
      const current = (await allSettings()).find((s) => s.type === type)!;
      await deps.alerts.upsertSetting(
        {
          type,
          enabled: update.enabled ?? current.enabled,
          email: update.email ?? current.email,
          threshold: isThresholdType(type) ? (update.threshold ?? current.threshold) : null,
        },
        deps.clock().toISOString(),
      );
      return settingsAnswer();
    },

    async thresholds() {
      const all = await allSettings();
      const get = (t: ThresholdAlertType) => all.find((s) => s.type === t)!.threshold ?? DEFAULT_THRESHOLDS[t];
      return { diskSpace: get('diskSpace'), memory: get('memory'), cpu: get('cpu') };
    },

    raise: (input) => track(raise(input)),

    notify(input) {
      track(raise(input)).catch((err: unknown) => deps.logger.error({ err, alertType: input.type }, 'could not store an alert'));
    },

    async history(limit) {
      const [rows, counts] = await Promise.all([deps.alerts.list(limit), deps.alerts.counts()]);
      return { alerts: rows.map(toAlertEntry), total: counts.total, unacknowledged: counts.unacknowledged };
    },

    async acknowledge(id) {
      const existing = isRecordKey(id) ? await deps.alerts.findById(id) : undefined;
      if (!existing) throw new NotFoundError(ADMIN_MESSAGES.alertNotFound);
      await deps.alerts.acknowledge(id, deps.clock().toISOString());
      return toAlertEntry((await deps.alerts.findById(id))!);
    },

    async clear() {
      await deps.alerts.clear();
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
