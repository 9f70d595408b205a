import type { Kysely } from "kysely";

/**
 * Webhooks of organizations, their deliveries (a queue per webhook, read in `position` order) and the
 * fan-out's cursor per organization. Space and site filters hold ids without a foreign key: a space
 * deleted for good leaves a webhook that matches nothing rather than one that matches everything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("space_id", "text")
    .addColumn("site_id", "text")
    .addColumn("description", "text")
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("disabled_reason", "text")
    .addColumn("disabled_at", "text")
    .addColumn("after_sequence", "integer", (c) => c.notNull())
    .addColumn("lease_token", "text")
    .addColumn("lease_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webhooks_by_org")
    .on("webhooks")
    .columns(["organization_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull().references("events.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("first_attempt_at", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_status_code", "integer")
    .addColumn("last_duration_ms", "integer")
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // The head of a webhook's queue; the listing, newest first; the retention's sweep.
  await db.schema
    .createIndex("webhook_deliveries_queue")
    .on("webhook_deliveries")
    .columns(["webhook_id", "status", "position"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_by_webhook")
    .on("webhook_deliveries")
    .columns(["webhook_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_by_time")
    .on("webhook_deliveries")
    .columns(["created_at"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_by_event")
    .on("webhook_deliveries")
    .columns(["event_id"])
    .execute();

  await db.schema
    .createTable("webhook_cursors")
    .addColumn("organization_id", "text", (c) =>
      c.primaryKey().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("last_sequence", "integer", (c) => c.notNull())
    .execute();
}
