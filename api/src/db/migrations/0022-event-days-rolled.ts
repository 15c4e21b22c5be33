import { sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * The UTC days whose tracking events are rolled up into event_daily (issue 32). Every complete day is rolled up (the
 * retention job, newest first), not only days past the retention: the funnel then reads the aggregates of the days
 * listed here and raw events of the others only (today, and a day not rolled up yet), so a request reads one day of raw
 * events at any history. A day is listed in the same transaction that writes its aggregates, and only then: listed
 * means "event_daily holds this day whole". The days that 0018's retention already rolled up (their raw events gone)
 * are listed here from event_daily itself.
 */
export const eventDaysRolledMigration: Migration = {
  name: '0022-event-days-rolled',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('event_days_rolled')
      .addColumn('day', 'text', (col) => col.primaryKey())
      .addColumn('rolled_at', 'text', (col) => col.notNull())
      .execute();
    await sql`insert into event_days_rolled (day, rolled_at) select distinct day, ${new Date().toISOString()} from event_daily`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('event_days_rolled').execute();
  },
};
