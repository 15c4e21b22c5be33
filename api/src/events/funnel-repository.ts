import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface DailyEventCount {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  name: string;
  count: number;
}

/** Aggregates over stored tracking events for the admin funnel. Same SQL on SQLite and PostgreSQL. */
export interface FunnelRepository {
  /** Events of the given names since `since`, counted per UTC day and name. */
  dailyCounts(names: readonly string[], since: string): Promise<DailyEventCount[]>;
  /** The most viewed paths (page_view events) since `since`. */
  topPages(since: string, limit: number): Promise<{ path: string; views: number }[]>;
  /**
   * Page views since `since` counted per stored `props` text. A page view's props are only its referrer class
   * (the contract refuses anything else), so there are a handful of distinct values: `{"referrer":"search"}`, … or null.
   */
  pageViewsByProps(since: string): Promise<{ props: string | null; views: number }[]>;
}

type Count = number | string | bigint;

/**
 * Reads raw events and their daily aggregates together (event_daily: the days the retention rolled up, migration
 * 0018). A day is either still raw or rolled up whole, in one transaction, so nothing is counted twice; a window's
 * start is a UTC day's start, so its day compares with the aggregates' `day`.
 */
export function createFunnelRepository(db: Kysely<Database>): FunnelRepository {
  const dayOf = (since: string) => since.slice(0, 10);
  return {
    async dailyCounts(names, since) {
      if (names.length === 0) return [];
      const day = sql<string>`substr(at, 1, 10)`;
      const [raw, rolled] = await Promise.all([
        db
          .selectFrom('events')
          .select((eb) => [day.as('day'), 'name', eb.fn.countAll<Count>().as('n')])
          .where('name', 'in', [...names])
          .where('at', '>=', since)
          .groupBy([day, 'name'])
          .execute(),
        db
          .selectFrom('event_daily')
          .select((eb) => ['day', 'name', eb.fn.sum<Count>('count').as('n')])
          .where('name', 'in', [...names])
          .where('day', '>=', dayOf(since))
          .groupBy(['day', 'name'])
          .execute(),
      ]);
      const counts = new Map<string, DailyEventCount>();
      for (const r of [...raw, ...rolled]) {
        const key = `${r.day}\n${r.name}`;
        const entry = counts.get(key) ?? { day: r.day, name: r.name, count: 0 };
        entry.count += Number(r.n);
        counts.set(key, entry);
      }
      return [...counts.values()];
    },
    async topPages(since, limit) {
      const { rows } = await sql<{ path: string; n: Count }>`
        select path, sum(n) as n from (
          select path, count(*) as n from events where name = 'page_view' and at >= ${since} group by path
          union all
          select path, sum(count) as n from event_daily where name = 'page_view' and day >= ${dayOf(since)} group by path
        ) pages
        group by path
        order by sum(n) desc, path
        limit ${sql.lit(Math.max(1, Math.trunc(limit)))}`.execute(db);
      return rows.map((r) => ({ path: r.path, views: Number(r.n) }));
    },
    async pageViewsByProps(since) {
      const { rows } = await sql<{ props: string | null; n: Count }>`
        select props, sum(n) as n from (
          select coalesce(props, '') as props, count(*) as n from events where name = 'page_view' and at >= ${since} group by props
          union all
          select props, sum(count) as n from event_daily where name = 'page_view' and day >= ${dayOf(since)} group by props
        ) referrers
        group by props`.execute(db);
      return rows.map((r) => ({ props: r.props === '' ? null : r.props, views: Number(r.n) }));
    },
  };
}
