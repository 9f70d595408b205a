import type { Kysely } from "kysely";

/** Sessions of the application's previews; a session goes with its token and its user. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_id", "text", (c) => c.notNull().references("api_tokens.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  // Revoking a token deletes its sessions by cascade, found here rather than by a scan.
  await db.schema.createIndex("app_sessions_by_token").on("app_sessions").column("token_id").execute();
}
