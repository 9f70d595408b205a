import type { Kysely } from "kysely";

/**
 * The event stream: events numbered per organization (the counter row is what orders them), read in
 * that order by (organization, sequence).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("event_counters")
    .addColumn("organization_id", "text", (c) =>
      c.primaryKey().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("last_sequence", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("sequence", "integer", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("space_id", "text")
    .addColumn("site_id", "text")
    .addColumn("actor_id", "text")
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("events_in_order", ["organization_id", "sequence"])
    .execute();
  await db.schema.createIndex("events_by_time").on("events").columns(["created_at"]).execute();
}
