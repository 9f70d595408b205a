import type { Kysely } from "kysely";

/** Passwords (argon2id hashes) and the one-time links sent by email or printed at the first start. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_passwords")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("changed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sign_in_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("sign_in_links_by_user").on("sign_in_links").column("user_id").execute();
}
