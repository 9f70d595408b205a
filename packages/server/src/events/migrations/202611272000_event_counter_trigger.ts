import { type Kysely, SqliteAdapter, sql } from "kysely";

/**
 * On SQLite, an event's insert moves its organization's counter on itself: the insert takes its
 * number from the counter, and this trigger sets the counter to it. One statement per event instead
 * of two (SQLite runs no INSERT in a WITH, which does the same on PostgreSQL); SQLite's one writer at
 * a time keeps the numbers in commit order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create trigger events_counted after insert on events begin
      insert into event_counters (organization_id, last_sequence) values (new.organization_id, new.sequence)
      on conflict (organization_id) do update set last_sequence = excluded.last_sequence;
    end`.execute(db);
}
