import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** How much waits in one outbox: rows still to send and the creation time of the oldest. */
export interface OutboxStat {
  outbox: 'contact_mail' | 'webhook_deliveries';
  depth: number;
  /** ISO time of the oldest pending row; null when nothing waits. */
  oldestCreatedAt: string | null;
}

/**
 * The outboxes' depth for the metrics, read when Prometheus scrapes (never per request): one COUNT and MIN over the
 * pending rows of each, which the outbox indexes (status first) keep to the pending rows.
 */
export function createOutboxStatsRepository(db: Kysely<Database>) {
  return {
    async outboxes(): Promise<OutboxStat[]> {
      const [mail, deliveries] = await Promise.all([
        db
          .selectFrom('contact_messages')
          .select((eb) => [eb.fn.countAll().as('depth'), eb.fn.min('created_at').as('oldest')])
          .where('mail_status', '=', 'pending')
          .executeTakeFirst(),
        db
          .selectFrom('outgoing_webhook_deliveries')
          .select((eb) => [eb.fn.countAll().as('depth'), eb.fn.min('created_at').as('oldest')])
          .where('status', '=', 'pending')
          .executeTakeFirst(),
      ]);
      return [
        { outbox: 'contact_mail', depth: Number(mail?.depth ?? 0), oldestCreatedAt: mail?.oldest ?? null },
        { outbox: 'webhook_deliveries', depth: Number(deliveries?.depth ?? 0), oldestCreatedAt: deliveries?.oldest ?? null },
      ];
    },
  };
}

export type OutboxStatsRepository = ReturnType<typeof createOutboxStatsRepository>;
