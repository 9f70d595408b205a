import type { Kysely } from "kysely";

/** The comment posted with a review, a thread of its change request; null: none. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("change_request_reviews").addColumn("comment_id", "text").execute();
}
