import type { Kysely } from "kysely";

/**
 * What the audit log reads of an event besides the event: the API token and client address of the
 * request that caused it (none for the server's own work), and the resource it is about, by which
 * the log is filtered as by its actor (newest first: by sequence).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("events").addColumn("actor_token_id", "text").execute();
  await db.schema.alterTable("events").addColumn("actor_address", "text").execute();
  await db.schema.alterTable("events").addColumn("target_id", "text").execute();
  await db.schema
    .createIndex("events_by_target")
    .on("events")
    .columns(["organization_id", "target_id", "sequence"])
    .execute();
  await db.schema
    .createIndex("events_by_actor")
    .on("events")
    .columns(["organization_id", "actor_id", "sequence"])
    .execute();
}
