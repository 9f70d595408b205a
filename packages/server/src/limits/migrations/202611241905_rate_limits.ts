import type { Kysely } from "kysely";

/** Per-token request counts that server processes sharing a PostgreSQL database add up. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_windows")
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("window_number", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limit_windows_pk", ["token_hash", "window_number"])
    .execute();
}
