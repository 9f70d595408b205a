import type { Kysely } from "kysely";

/** Failed sign-ins that name no organization, read and trimmed by time. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("failed_sign_ins")
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("address", "text")
    .execute();
  await db.schema
    .createIndex("failed_sign_ins_by_time")
    .on("failed_sign_ins")
    .columns(["occurred_at"])
    .execute();
}
