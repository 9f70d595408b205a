import type { Kysely } from "kysely";

/** The POSTs sent with an `Idempotency-Key`, and their answers, replayed to a retry. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("answer", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["user_id", "key"])
    .execute();
  // What the purge of expired keys scans.
  await db.schema
    .createIndex("idempotency_keys_expiry")
    .on("idempotency_keys")
    .column("expires_at")
    .execute();
}
