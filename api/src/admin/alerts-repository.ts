import { sql, type Kysely } from 'kysely';
import type { AlertSeverity, AlertType } from '@site/contracts/admin';
import type { Database } from '../db/schema';

export interface StoredAlertSetting {
  type: string;
  enabled: boolean;
  email: boolean;
  threshold: number | null;
}

export interface StoredAlert {
  id: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  detail: string | null;
  createdAt: string;
  emailSent: boolean;
  emailSentAt: string | null;
  acknowledgedAt: string | null;
}

export interface AlertsRepository {
  /** The stored settings (types never changed have no row: the service fills in defaults). */
  listSettings(): Promise<StoredAlertSetting[]>;
  upsertSetting(setting: StoredAlertSetting, at: string): Promise<void>;
  insert(alert: StoredAlert): Promise<void>;
  /** Newest first. */
  list(limit: number): Promise<StoredAlert[]>;
  counts(): Promise<{ total: number; unacknowledged: number }>;
  findById(id: string): Promise<StoredAlert | undefined>;
  acknowledge(id: string, at: string): Promise<boolean>;
  markEmailSent(id: string, at: string): Promise<void>;
  /** When a mail about this type last went out, if ever. */
  lastEmailAt(type: AlertType): Promise<string | undefined>;
  clear(): Promise<number>;
  /** Keeps the newest `keep` alerts. */
  prune(keep: number): Promise<void>;
}

/** Alert settings and history. Same SQL on SQLite and PostgreSQL. */
export function createAlertsRepository(db: Kysely<Database>): AlertsRepository {
  return {
    async listSettings() {
      const rows = await db.selectFrom('alert_settings').selectAll().execute();
      return rows.map((r) => ({
        type: r.type,
        enabled: Number(r.enabled) === 1,
        email: Number(r.email) === 1,
        threshold: r.threshold === null ? null : Number(r.threshold),
      }));
    },
    async upsertSetting(s, at) {
      const values = { enabled: s.enabled ? 1 : 0, email: s.email ? 1 : 0, threshold: s.threshold, updated_at: at };
      await db
        .insertInto('alert_settings')
        .values({ type: s.type, ...values })
        .onConflict((oc) => oc.column('type').doUpdateSet(values))
        .execute();
    },
    async insert(a) {
      await db
        .insertInto('alerts')
        .values({
          id: a.id,
          type: a.type,
          severity: a.severity,
          title: a.title,
          message: a.message,
          detail: a.detail,
          created_at: a.createdAt,
          email_sent: a.emailSent ? 1 : 0,
          email_sent_at: a.emailSentAt,
          acknowledged_at: a.acknowledgedAt,
        })
        .execute();
    },
    async list(limit) {
      const rows = await db.selectFrom('alerts').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toStored);
    },
    async counts() {
      const row = await db
        .selectFrom('alerts')
        .select((eb) => [
          eb.fn.countAll<number | string | bigint>().as('total'),
          eb.fn.count<number | string | bigint>(sql`case when acknowledged_at is null then 1 end`).as('open'),
        ])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), unacknowledged: Number(row.open) };
    },
    async findById(id) {
      const row = await db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toStored(row);
    },
    async acknowledge(id, at) {
      const result = await db
        .updateTable('alerts')
        .set({ acknowledged_at: at })
        .where('id', '=', id)
        .where('acknowledged_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markEmailSent(id, at) {
      await db.updateTable('alerts').set({ email_sent: 1, email_sent_at: at }).where('id', '=', id).execute();
    },
    async lastEmailAt(type) {
      const row = await db
        .selectFrom('alerts')
        .select('email_sent_at')
        .where('type', '=', type)
        .where('email_sent_at', 'is not', null)
        .orderBy('email_sent_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.email_sent_at ?? undefined;
    },
    async clear() {
      const result = await db.deleteFrom('alerts').executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async prune(keep) {
      const cutoff = await db
        .selectFrom('alerts')
        .select('created_at')
        .orderBy('created_at', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (cutoff) await db.deleteFrom('alerts').where('created_at', '<=', cutoff.created_at).execute();
    },
  };
}

function toStored(r: {
  id: string;
  type: string;
  severity: string;
  title: string;
  message: string;
  detail: string | null;
  created_at: string;
  email_sent: number;
  email_sent_at: string | null;
  acknowledged_at: string | null;
}): StoredAlert {
  return {
    id: r.id,
    type: r.type as AlertType,
    severity: r.severity as AlertSeverity,
    title: r.title,
    message: r.message,
    detail: r.detail,
    createdAt: r.created_at,
    emailSent: Number(r.email_sent) === 1,
    emailSentAt: r.email_sent_at,
    acknowledgedAt: r.acknowledged_at,
  };
}
