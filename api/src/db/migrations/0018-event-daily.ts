import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * Daily aggregates of tracking events (issue 32): raw events older than the retention (RETENTION_EVENT_DAYS, 90) are
 * rolled up into one row per UTC day, event name, path and referrer props, then deleted, so the dashboard's counts stay
 * right for any window while the raw table stops growing. Only page views keep their path and props (what the funnel
 * reads of them: top pages, referrer classes); other events are counted per day and name (path '' and props '').
 * `events(at)` lets the rollup find the oldest day without reading the table.
 */
export const eventDailyMigration: Migration = {
  name: '0018-event-daily',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('event_daily')
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('path', 'text', (col) => col.notNull())
      .addColumn('props', 'text', (col) => col.notNull())
      .addColumn('count', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('event_daily_pk', ['day', 'name', 'path', 'props'])
      .execute();
    await db.schema.createIndex('event_daily_name_day_idx').on('event_daily').columns(['name', 'day']).execute();
    await db.schema.createIndex('events_at_idx').on('events').column('at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('events_at_idx').execute();
    await db.schema.dropTable('event_daily').execute();
  },
};
