import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * The admin inbox without a scan per page (issue 32). `contact_message_counts` holds how many messages are in each
 * (read, handled) state — at most four rows — kept by triggers on contact_messages in the transaction of the write
 * that changes a message, whoever writes it (the contact form, the admin, retention), like blog_post_counts (0009).
 * The list's `total` and `unread` and the count per filter (all, unread, read, handled, open) are sums of these rows.
 *
 * Partial indexes on (created_at, id) per filter, so a filtered page is read by keyset from its own index, newest
 * first, instead of walking every message and testing read_at / handled_at. Both engines use a partial index when
 * the query's condition is the index's (`read_at is null`, …).
 */
export const leadCountsMigration: Migration = {
  name: '0020-lead-counts',
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('contact_message_counts')
      .addColumn('is_read', 'integer', (col) => col.notNull())
      .addColumn('is_handled', 'integer', (col) => col.notNull())
      .addColumn('messages', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('contact_message_counts_pk', ['is_read', 'is_handled'])
      .execute();
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    /** 1 when the column is set, 0 when null (a plain integer on both engines). */
    const flag = (column: string) => (postgres ? `(case when ${column} is null then 0 else 1 end)` : `(${column} is not null)`);
    await sql`
      insert into contact_message_counts (is_read, is_handled, messages)
      select ${sql.raw(flag('read_at'))}, ${sql.raw(flag('handled_at'))}, count(*) from contact_messages group by 1, 2`.execute(db);

    for (const [name, condition] of [
      ['contact_messages_unread_idx', 'read_at is null'],
      ['contact_messages_read_idx', 'read_at is not null'],
      ['contact_messages_handled_idx', 'handled_at is not null'],
      ['contact_messages_open_idx', 'handled_at is null'],
    ] as const) {
      await sql`create index ${sql.raw(name)} on contact_messages (created_at, id) where ${sql.raw(condition)}`.execute(db);
    }
    await sql`create index contact_messages_created_id_idx on contact_messages (created_at, id)`.execute(db);

    /** Adds `delta` to the counter of the old or new row's state. */
    const add = (row: 'new' | 'old', delta: string) =>
      sql.raw(
        `insert into contact_message_counts (is_read, is_handled, messages) values (${flag(`${row}.read_at`)}, ${flag(`${row}.handled_at`)}, ${delta})` +
          ` on conflict (is_read, is_handled) do update set messages = contact_message_counts.messages + (${delta})`,
      );
    if (postgres) {
      await sql`
        create function contact_message_counts_track() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') then
            ${add('old', '-1')};
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            ${add('new', '1')};
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger contact_message_counts_insert_delete after insert or delete on contact_messages for each row execute function contact_message_counts_track()`.execute(
        db,
      );
      await sql`
        create trigger contact_message_counts_update after update of read_at, handled_at on contact_messages for each row
        when ((old.read_at is null) <> (new.read_at is null) or (old.handled_at is null) <> (new.handled_at is null))
        execute function contact_message_counts_track()`.execute(db);
      return;
    }
    await sql`create trigger contact_message_counts_insert after insert on contact_messages begin ${add('new', '1')}; end`.execute(db);
    await sql`create trigger contact_message_counts_delete after delete on contact_messages begin ${add('old', '-1')}; end`.execute(db);
    await sql`
      create trigger contact_message_counts_update after update of read_at, handled_at on contact_messages
      when (old.read_at is null) <> (new.read_at is null) or (old.handled_at is null) <> (new.handled_at is null) begin
        ${add('old', '-1')};
        ${add('new', '1')};
      end`.execute(db);
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop trigger contact_message_counts_update on contact_messages`.execute(db);
      await sql`drop trigger contact_message_counts_insert_delete on contact_messages`.execute(db);
      await sql`drop function contact_message_counts_track()`.execute(db);
    } else {
      for (const name of ['contact_message_counts_update', 'contact_message_counts_delete', 'contact_message_counts_insert']) await sql`drop trigger ${sql.raw(name)}`.execute(db);
    }
    for (const name of ['contact_messages_created_id_idx', 'contact_messages_open_idx', 'contact_messages_handled_idx', 'contact_messages_read_idx', 'contact_messages_unread_idx']) {
      await sql`drop index ${sql.raw(name)}`.execute(db);
    }
    await db.schema.dropTable('contact_message_counts').execute();
  },
};
