import { type Kysely, SqliteAdapter, sql } from "kysely";

/**
 * Events are numbered after their transaction commits (see `numberEvents`): a write inserts its event
 * into `unnumbered_events`, in the order of `position`, and numbering moves it into `events`. The
 * write then locks no counter row: on PostgreSQL the organization's counter was held through every
 * commit's flush, so that an organization's writes with events committed one at a time. No foreign
 * key either, whose check would lock the organization's row. The counter trigger goes: only
 * numbering moves a counter now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable("unnumbered_events")
    // SQLite: the rowid. PostgreSQL: an identity, never given twice.
    .addColumn("position", sqlite ? "integer" : "bigint", (c) =>
      sqlite ? c.primaryKey() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("space_id", "text")
    .addColumn("site_id", "text")
    .addColumn("actor_id", "text")
    .addColumn("actor_token_id", "text")
    .addColumn("actor_address", "text")
    .addColumn("target_id", "text")
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  if (sqlite) await sql`drop trigger events_counted`.execute(db);
}
