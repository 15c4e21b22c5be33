import { sql, type Kysely } from 'kysely';
import { searchWords } from '@site/contracts/search-rules';
import type { ContactMessageRow } from './contact-schema';
import type { Database } from '../db/schema';
import { underWalkSettings, bestInIndex, bestOfWindow, inOrderOf, isPostgres, newestWindow, scanWasFull, searchFor, SEARCH_RANK_LIMIT, SEARCH_SCAN_LIMIT, tsQuery, type BoundedCount, type RankedRows } from '../db/full-text-search';

/**
 * PostgreSQL: how many of the newest messages of the filter a ranked search walks, in `created_at` order, for its
 * newest SEARCH_RANK_LIMIT matches. GIN answers matches in no order, so it would read every match of a common text
 * first; a text too rare among these rows goes to the GIN index instead (`newestWindow`).
 */
export const PG_SEARCH_WINDOW = SEARCH_SCAN_LIMIT;

/**
 * PostgreSQL: how many of the newest messages are sampled to tell whether a text is common enough to walk them
 * (`newestMessagesPg`): cheap to read, and enough to hold a few matches at the deciding rate (1 in 20).
 */
export const PG_SEARCH_PROBE = 300;

export type LeadFilter = 'all' | 'unread' | 'read' | 'handled' | 'open';

/** A message's place in the inbox's order. */
export interface LeadPosition {
  createdAt: string;
  id: string;
}

export interface StoredLead {
  id: string;
  createdAt: string;
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  message: string;
  userAgent: string | null;
  mailStatus: string;
  mailAttempts: number;
  mailNextAttemptAt: string | null;
  mailLastError: string | null;
  mailSentAt: string | null;
  readAt: string | null;
  handledAt: string | null;
}

export interface LeadsRepository {
  /**
   * Newest first; with `q` (every word, the last one as a prefix, in name, email, company, subject or message, through
   * the full-text index) best match first, then newest, among the newest SEARCH_RANK_LIMIT (1,000) matches of the
   * filter; `total` counts the matches up to SEARCH_RANK_LIMIT, `totalIsLowerBound` when more match (or, on SQLite,
   * when a filter kept fewer of the newest SEARCH_SCAN_LIMIT matches than that: older ones were not read).
   */
  search(options: { q: string; filter: LeadFilter; limit: number }): Promise<{ leads: StoredLead[] } & BoundedCount>;
  /**
   * One page of the inbox without search, newest first (created_at desc, then id), by keyset: `older` than a position
   * (the next page) or `newer` than one (the previous page), read from the filter's (created_at, id) index (migration
   * 0020), never an OFFSET. `more` says whether another page lies beyond in the direction read.
   */
  keysetPage(options: { filter: LeadFilter; limit: number; older?: LeadPosition; newer?: LeadPosition }): Promise<{ leads: StoredLead[]; more: boolean }>;
  /** Messages per filter over the whole inbox: the counters triggers keep (migration 0020), four rows read. */
  counts(): Promise<Record<LeadFilter, number>>;
  /**
   * Every message matching the search and filter, newest first (messages of one time by id), read in batches of
   * `batchSize` (default 200) by keyset on (created_at, id): the CSV export. Each batch is one short query, so memory
   * and the time a query holds the database (and, on SQLite, the event loop) stay those of one batch at any size;
   * batches of 500 held SQLite's event loop long enough to slow other requests. A message stored or changed while it
   * runs appears as it is when its batch is read; none is repeated or skipped (created_at and id never change).
   */
  batches(options: { q?: string; filter: LeadFilter; batchSize?: number }): AsyncGenerator<StoredLead[], void, undefined>;
  findById(id: string): Promise<StoredLead | undefined>;
  setFlags(id: string, flags: { readAt?: string | null; handledAt?: string | null }): Promise<boolean>;
  /** Owner mails not sent yet (queued or retrying) and given up. */
  outboxBacklog(): Promise<{ pending: number; retrying: number; failed: number }>;
}

/** The admin view of contact messages (the inbox). Same SQL on SQLite and PostgreSQL. */
export function createLeadsRepository(db: Kysely<Database>): LeadsRepository {
  /** The messages matching a filter; search text through the full-text index (db/full-text-search.ts). */
  function filtered(q: string | undefined, filter: LeadFilter, ranked = false) {
    const search = searchFor(db, 'contact_messages', q);
    let query = (ranked && search.ranked) || search.from;
    // A ranked search with a filter looks at the newest SEARCH_SCAN_LIMIT matches of its text at most (SQLite).
    if (ranked && search.ranked && search.scanFloor && filter !== 'all') query = query.where(search.scanFloor);
    if (filter === 'unread') query = query.where('read_at', 'is', null);
    if (filter === 'read') query = query.where('read_at', 'is not', null);
    if (filter === 'handled') query = query.where('handled_at', 'is not', null);
    if (filter === 'open') query = query.where('handled_at', 'is', null);
    return query;
  }

  /**
   * PostgreSQL: whether `q` is common among the newest messages of the filter, at least 1 in 20 of the newest
   * PG_SEARCH_PROBE (then its newest SEARCH_RANK_LIMIT + 1 matches are expected among the newest PG_SEARCH_WINDOW):
   * cheaper found by walking the created_at index newest first than by reading every match of the GIN index. False on
   * SQLite and for text without a word.
   */
  async function commonAmongNewestPg(q: string | undefined, filter: LeadFilter): Promise<boolean> {
    const words = searchWords(q ?? '');
    if (!isPostgres(db) || words.length === 0) return false;
    const probe = await db
      .selectFrom(
        filtered(undefined, filter)
          .select(sql<string>`contact_messages.search_vector`.as('search_vector'))
          .orderBy('created_at', 'desc')
          .limit(PG_SEARCH_PROBE)
          .as('p'),
      )
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where(sql<boolean>`p.search_vector @@ to_tsquery('simple'::regconfig, ${tsQuery(words)})`)
      .executeTakeFirstOrThrow();
    return Number(probe.n) * PG_SEARCH_WINDOW >= (SEARCH_RANK_LIMIT + 1) * PG_SEARCH_PROBE;
  }

  /**
   * PostgreSQL's ranked window from the newest PG_SEARCH_WINDOW messages of the filter, read newest first by the
   * created_at index and stopping at the SEARCH_RANK_LIMIT + 1st match: the same window as the newest matches of every
   * message whenever that many are among them (any newer match is). Undefined on SQLite (its FTS index gives matches
   * newest first already) and when fewer match there: then the GIN index (`newestWindow`).
   *
   * The newest PG_SEARCH_PROBE messages are sampled first: a rare text (a name, an address) goes to the GIN index at
   * once instead of walking PG_SEARCH_WINDOW messages to find few or none.
   */
  async function newestMessagesPg(q: string, filter: LeadFilter, limit: number): Promise<{ ids: string[]; matches: number } | undefined> {
    if (!(await commonAmongNewestPg(q, filter))) return undefined;
    const query = sql`to_tsquery('simple'::regconfig, ${tsQuery(searchWords(q))})`;
    const newest = filtered(undefined, filter)
      .select(['id', 'created_at', sql<string>`contact_messages.search_vector`.as('search_vector')])
      .orderBy('created_at', 'desc')
      .limit(PG_SEARCH_WINDOW)
      .as('w');
    const window = db
      .selectFrom(newest)
      .select(['w.id', 'w.created_at', sql<number>`-ts_rank(w.search_vector, ${query})`.as('search_rank'), sql<string>`w.created_at`.as('newest_key')])
      .where(sql<boolean>`w.search_vector @@ ${query}`)
      .orderBy('w.created_at', 'desc')
      .limit(SEARCH_RANK_LIMIT + 1);
    const best = await bestOfWindow(db, window as unknown as RankedRows, sql`created_at desc, id`, limit);
    return best.matches > SEARCH_RANK_LIMIT ? best : undefined;
  }

  return {
    async *batches({ q, filter, batchSize = 200 }) {
      /**
       * One batch after a position, as leads: the driver's rows are garbage once it returns, so they die young
       * instead of being promoted to the old generation while the batch is written out.
       */
      // A common search text (PostgreSQL): each batch walks the created_at index from its position under the walk's
      // settings; left to itself the planner combined a bitmap of every match with the older messages' for each batch.
      const walk = await commonAmongNewestPg(q, filter);
      const read = async (after: LeadPosition | undefined): Promise<StoredLead[]> => {
        let query = filtered(q, filter).select(LEAD_COLUMNS);
        if (after) {
          const { createdAt, id } = after;
          // After the last row in (created_at desc, id asc) order. `created_at <= …` alone is the range the
          // created_at index serves (both databases scan it backward and sort only the ties by id).
          query = query.where('created_at', '<=', createdAt).where((eb) => eb.or([eb('created_at', '<', createdAt), eb('id', '>', id)]));
        }
        const batch = query.orderBy('created_at', 'desc').orderBy('id').limit(batchSize).compile();
        const { rows } = walk ? await underWalkSettings(db, (trx) => trx.executeQuery(batch)) : await db.executeQuery(batch);
        return rows.map(toLead);
      };
      let after: LeadPosition | undefined;
      for (;;) {
        const leads = await read(after);
        const last = leads.at(-1);
        const full = leads.length === batchSize;
        if (leads.length > 0) yield leads;
        if (!full || !last) return;
        after = { createdAt: last.createdAt, id: last.id };
      }
    },
    async search({ q, filter, limit }) {
      // Best match first, then newest, among the newest SEARCH_RANK_LIMIT matches of the filter. One page: a rank is
      // not a stable position for a keyset (SQLite's bm25 changes as messages are added).
      const { rank, newest } = searchFor(db, 'contact_messages', q);
      if (!rank || !newest) return { leads: [], total: 0, totalIsLowerBound: false };
      // The window is read narrow (id, rank, time), then the page's rows by id: the sort holds no message text.
      // SQLite without a filter: ranked in the FTS index, the page's candidates read from the table (bestInIndex).
      // PostgreSQL: the newest messages first (newestMessagesPg), a rarer text through the GIN index. No bestOfFew as
      // posts have: GIN reads every match into its bitmap before a `limit` applies, so asking whether few match costs
      // as much as the window itself.
      const best =
        (filter === 'all' ? await bestInIndex(db, 'contact_messages', q, sql`t.created_at desc, t.id`, limit) : undefined) ??
        (await newestMessagesPg(q, filter, limit)) ??
        (await bestOfWindow(
          db,
          newestWindow(db, filtered(q, filter, true).select(['id', 'created_at', rank.as('search_rank'), newest.as('newest_key')]) as unknown as RankedRows, newest),
          sql`created_at desc, id`,
          limit,
        ));
      const leads = await inOrderOf(best.ids, (ids) => db.selectFrom('contact_messages').select(LEAD_COLUMNS).where('id', 'in', ids).execute());
      const more = best.matches > SEARCH_RANK_LIMIT || (filter !== 'all' && (await scanWasFull(db, 'contact_messages', q)));
      return { leads: leads.map(toLead), total: Math.min(best.matches, SEARCH_RANK_LIMIT), totalIsLowerBound: more };
    },
    async keysetPage({ filter, limit, older, newer }) {
      let query = filtered(undefined, filter).select(LEAD_COLUMNS);
      if (older) {
        const { createdAt, id } = older;
        query = query.where('created_at', '<=', createdAt).where((eb) => eb.or([eb('created_at', '<', createdAt), eb('id', '>', id)]));
      } else if (newer) {
        const { createdAt, id } = newer;
        query = query.where('created_at', '>=', createdAt).where((eb) => eb.or([eb('created_at', '>', createdAt), eb('id', '<', id)]));
      }
      // The page before is read in reverse (oldest first from the position), then turned round.
      const rows = newer
        ? (await query.orderBy('created_at').orderBy('id', 'desc').limit(limit + 1).execute()).reverse()
        : await query.orderBy('created_at', 'desc').orderBy('id').limit(limit + 1).execute();
      const more = rows.length > limit;
      const page = more ? (newer ? rows.slice(1) : rows.slice(0, limit)) : rows;
      return { leads: page.map(toLead), more };
    },
    async counts() {
      const rows = await db.selectFrom('contact_message_counts').select(['is_read', 'is_handled', 'messages']).execute();
      const out: Record<LeadFilter, number> = { all: 0, unread: 0, read: 0, handled: 0, open: 0 };
      for (const r of rows) {
        const n = Number(r.messages);
        out.all += n;
        if (Number(r.is_read)) out.read += n;
        else out.unread += n;
        if (Number(r.is_handled)) out.handled += n;
        else out.open += n;
      }
      return out;
    },
    async findById(id) {
      const row = await db.selectFrom('contact_messages').select(LEAD_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && toLead(row);
    },
    async setFlags(id, flags) {
      const set: { read_at?: string | null; handled_at?: string | null } = {};
      if (flags.readAt !== undefined) set.read_at = flags.readAt;
      if (flags.handledAt !== undefined) set.handled_at = flags.handledAt;
      if (Object.keys(set).length === 0) return Boolean(await this.findById(id));
      const result = await db.updateTable('contact_messages').set(set).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async outboxBacklog() {
      const rows = await db
        .selectFrom('contact_messages')
        .select((eb) => [
          'mail_status',
          eb.fn.count<number | string | bigint>(sql`case when mail_attempts > 0 then 1 end`).as('retried'),
          eb.fn.countAll<number | string | bigint>().as('n'),
        ])
        .where('mail_status', 'in', ['pending', 'failed'])
        .groupBy('mail_status')
        .execute();
      const out = { pending: 0, retrying: 0, failed: 0 };
      for (const r of rows) {
        if (r.mail_status === 'failed') out.failed = Number(r.n);
        else {
          out.retrying = Number(r.retried);
          out.pending = Number(r.n) - out.retrying;
        }
      }
      return out;
    },
  };
}

/** The columns a lead is made of, by name (PostgreSQL's `search_vector`, the search index's column, is never read). */
const LEAD_COLUMNS = [
  'id',
  'created_at',
  'ip_hash',
  'user_agent',
  'name',
  'email',
  'company',
  'subject',
  'message',
  'mail_status',
  'mail_attempts',
  'mail_next_attempt_at',
  'mail_last_error',
  'mail_sent_at',
  'request_id',
  'read_at',
  'handled_at',
] as const satisfies ReadonlyArray<keyof ContactMessageRow>;

function toLead(r: ContactMessageRow): StoredLead {
  return {
    id: r.id,
    createdAt: r.created_at,
    name: r.name,
    email: r.email,
    company: r.company,
    subject: r.subject,
    message: r.message,
    userAgent: r.user_agent,
    mailStatus: r.mail_status,
    mailAttempts: Number(r.mail_attempts),
    mailNextAttemptAt: r.mail_next_attempt_at,
    mailLastError: r.mail_last_error,
    mailSentAt: r.mail_sent_at,
    readAt: r.read_at,
    handledAt: r.handled_at,
  };
}
