import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Events of one UTC day counted by name, and for page views by path and props (the shape of event_daily's rows:
 * other events have path '' and props '').
 */
export interface DayTally {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  name: string;
  /** A page view's path; '' for other events. */
  path: string;
  /** A page view's stored props text (its referrer class), '' for none; '' for other events. */
  props: string;
  count: number;
}

/** A range of raw events by `at`: from a day's start, up to (not including) `to`'s start, or open-ended. */
export interface RawRange {
  from: string;
  to?: string;
}

/** Stored contact messages of one UTC day. */
export interface DayLeads {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  count: number;
}

/**
 * What the admin funnel reads (same SQL on SQLite and PostgreSQL): the days whose events are rolled up (event_days_rolled,
 * migration 0022), their daily aggregates (event_daily, 0018), and raw events of the days that are not rolled up (today,
 * and a day the retention job has not reached yet). A day is read from one side only, so nothing is counted twice.
 * The contact step is not an event: it is the contact messages stored (contact_messages, migration 0003), however sent.
 */
export interface FunnelRepository {
  /** The days from `fromDay` to `toDay` (YYYY-MM-DD, both included) whose events event_daily holds whole. */
  rolledDays(fromDay: string, toDay: string): Promise<string[]>;
  /** The aggregates of the given rolled-up days, for the given event names. */
  rolledTallies(days: readonly string[], names: readonly string[]): Promise<DayTally[]>;
  /** Raw events of the given names in the given ranges, counted as event_daily counts them. */
  rawTallies(ranges: readonly RawRange[], names: readonly string[]): Promise<DayTally[]>;
  /**
   * The contact messages stored with `created_at` from `from` up to (not including) `to`, counted per UTC day (days
   * without one are left out). One range read of the created_at index (contact_messages_created_at_idx, 0003): as many
   * index entries as messages in the range, never the whole table.
   */
  leadsByDay(from: string, to: string): Promise<DayLeads[]>;
}

type Count = number | string | bigint;

export function createFunnelRepository(db: Kysely<Database>): FunnelRepository {
  return {
    async rolledDays(fromDay, toDay) {
      if (toDay < fromDay) return [];
      const rows = await db.selectFrom('event_days_rolled').select('day').where('day', '>=', fromDay).where('day', '<=', toDay).orderBy('day').execute();
      return rows.map((r) => r.day);
    },
    async rolledTallies(days, names) {
      if (days.length === 0 || names.length === 0) return [];
      const rows = await db
        .selectFrom('event_daily')
        .select(['day', 'name', 'path', 'props', 'count'])
        .where('day', 'in', [...days])
        .where('name', 'in', [...names])
        .execute();
      return rows.map((r) => ({ ...r, count: Number(r.count) }));
    },
    async rawTallies(ranges, names) {
      if (ranges.length === 0 || names.length === 0) return [];
      // The ranges are whole days read by the events(at) index; the grouping is the rollup's (retention-repository.ts).
      const inRanges = sql.join(
        ranges.map((r) => (r.to ? sql`(at >= ${r.from} and at < ${r.to})` : sql`at >= ${r.from}`)),
        sql` or `,
      );
      const { rows } = await sql<{ day: string; name: string; path: string; props: string; n: Count }>`
        select day, name, path, props, count(*) as n from (
          select substr(at, 1, 10) as day, name,
                 case when name = 'page_view' then path else '' end as path,
                 case when name = 'page_view' then coalesce(props, '') else '' end as props
          from events where (${inRanges}) and name in (${sql.join([...names])})
        ) raw
        group by day, name, path, props`.execute(db);
      return rows.map((r) => ({ day: r.day, name: r.name, path: r.path, props: r.props, count: Number(r.n) }));
    },
    async leadsByDay(from, to) {
      if (to <= from) return [];
      // created_at is the server's ISO time in UTC (contact-service.ts): its first 10 characters are its UTC day.
      const day = sql<string>`substr(created_at, 1, 10)`;
      const rows = await db
        .selectFrom('contact_messages')
        .select([day.as('day'), (eb) => eb.fn.countAll<Count>().as('n')])
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
    },
  };
}
