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

export function createFunnelRepository(db: Kysely<Database>): FunnelRepository {
  return {
    async dailyCounts(names, since) {
      if (names.length === 0) return [];
      const day = sql<string>`substr(at, 1, 10)`;
      const rows = await db
        .selectFrom('events')
        .select((eb) => [day.as('day'), 'name', eb.fn.countAll<number | string | bigint>().as('n')])
        .where('name', 'in', [...names])
        .where('at', '>=', since)
        .groupBy([day, 'name'])
        .execute();
      return rows.map((r) => ({ day: r.day, name: r.name, count: Number(r.n) }));
    },
    async topPages(since, limit) {
      const rows = await db
        .selectFrom('events')
        .select((eb) => ['path', eb.fn.countAll<number | string | bigint>().as('n')])
        .where('name', '=', 'page_view')
        .where('at', '>=', since)
        .groupBy('path')
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('path')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ path: r.path, views: Number(r.n) }));
    },
    async pageViewsByProps(since) {
      const rows = await db
        .selectFrom('events')
        .select((eb) => ['props', eb.fn.countAll<number | string | bigint>().as('n')])
        .where('name', '=', 'page_view')
        .where('at', '>=', since)
        .groupBy('props')
        .execute();
      return rows.map((r) => ({ props: r.props, views: Number(r.n) }));
    },
  };
}
