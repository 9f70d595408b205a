import type { Kysely } from "kysely";

/**
 * People's signed-in browsers. The cookie carries a secret of which only the hash is kept; `id` is the
 * session's public name (listed and revoked through the API). The previews' token sessions
 * (`app_sessions`) are replaced: a preview is now seen through a person's own session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("device", "text")
    .addColumn("address", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_by_user").on("sessions").column("user_id").execute();
  await db.schema.dropTable("app_sessions").ifExists().execute();
}
