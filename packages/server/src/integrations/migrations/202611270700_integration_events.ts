import type { Kysely } from "kysely";

/**
 * Integration events: where an integration's events go (`events_url`) and the secret they are signed
 * with, one record per installation and event sent (its payload as sent, so that it outlives the
 * event's retention and the installation), and the fan-out's cursor per organization. The records
 * name their installation and event without a foreign key: an uninstalled integration still lists
 * what it was sent, `installation_deleted` first of all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("integrations").addColumn("events_url", "text").execute();
  await db.schema.alterTable("integrations").addColumn("signing_secret", "text").execute();

  await db.schema
    .createTable("integration_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("integration_id", "text", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("installation_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("lease_token", "text")
    .addColumn("lease_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("integration_events_once", ["integration_id", "event_id"])
    .execute();
  // The listing, newest first; the sender's due records; the retention's sweep.
  await db.schema
    .createIndex("integration_events_by_integration")
    .on("integration_events")
    .columns(["integration_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("integration_events_due")
    .on("integration_events")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("integration_events_by_time")
    .on("integration_events")
    .columns(["created_at"])
    .execute();
}
