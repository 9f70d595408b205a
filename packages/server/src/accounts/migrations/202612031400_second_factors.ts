import type { Kysely } from "kysely";

/**
 * Second factors (authenticator apps and passkeys), recovery codes, the sign-ins waiting for a second
 * factor, and the challenges of passkeys being added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_factors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("totp_secret", "text")
    .addColumn("totp_last_step", "integer")
    .addColumn("credential_id", "text", (c) => c.unique())
    .addColumn("public_key", "text")
    .addColumn("sign_count", "bigint")
    .addColumn("transports", "text")
    .execute();
  await db.schema.createIndex("user_factors_by_user").on("user_factors").column("user_id").execute();
  await db.schema
    .createTable("recovery_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("recovery_codes_by_user").on("recovery_codes").column("user_id").execute();
  await db.schema
    .createTable("pending_sign_ins")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("next", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("challenge", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pending_sign_ins_by_user").on("pending_sign_ins").column("user_id").execute();
  await db.schema
    .createTable("passkey_challenges")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("challenge", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}
