import type { Kysely } from 'kysely';
import type { Database, EventRow, NewEventRow } from '../db/schema';

export interface StoredEvent {
  id: string;
  name: string;
  props: Record<string, string | number | boolean | null> | null;
  path: string;
  at: string;
  receivedAt: string;
}

export interface EventsRepository {
  insert(event: StoredEvent): Promise<void>;
  /** All or none: one statement, so a batch from one request is never half stored. */
  insertMany(events: readonly StoredEvent[]): Promise<void>;
  /** Newest first by `at`. */
  list(options?: { name?: string; limit?: number }): Promise<StoredEvent[]>;
  count(options?: { name?: string; since?: string }): Promise<number>;
}

/** Storage of first-party tracking events. Same SQL on SQLite and PostgreSQL. */
export function createEventsRepository(db: Kysely<Database>): EventsRepository {
  return {
    async insert(event) {
      await db.insertInto('events').values(toRow(event)).execute();
    },

    async insertMany(events) {
      if (events.length === 0) return;
      await db.insertInto('events').values(events.map(toRow)).execute();
    },

    async list({ name, limit = 100 } = {}) {
      let query = db.selectFrom('events').selectAll();
      if (name) query = query.where('name', '=', name);
      const rows = await query.orderBy('at', 'desc').orderBy('id').limit(limit).execute();
      return rows.map(toStoredEvent);
    },

    async count({ name, since } = {}) {
      let query = db.selectFrom('events').select((eb) => eb.fn.countAll<number | string | bigint>().as('n'));
      if (name) query = query.where('name', '=', name);
      if (since) query = query.where('at', '>=', since);
      const row = await query.executeTakeFirstOrThrow();
      // PostgreSQL returns count(*) as a bigint string.
      return Number(row.n);
    },
  };
}

function toRow(event: StoredEvent): NewEventRow {
  return {
    id: event.id,
    name: event.name,
    props: event.props ? JSON.stringify(event.props) : null,
    path: event.path,
    at: event.at,
    received_at: event.receivedAt,
  };
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.id,
    name: row.name,
    props: row.props === null ? null : (JSON.parse(row.props) as StoredEvent['props']),
    path: row.path,
    at: row.at,
    receivedAt: row.received_at,
  };
}
