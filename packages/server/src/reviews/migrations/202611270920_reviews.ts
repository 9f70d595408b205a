import type { Kysely } from "kysely";

/** Reviews of change requests and the requests for them; both go with their change request. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("change_request_reviews")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("change_request_id", "text", (c) =>
      c.notNull().references("change_requests.id").onDelete("cascade"),
    )
    .addColumn("reviewer_id", "text", (c) => c.notNull())
    .addColumn("requested_by", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("revision_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A change request's reviews newest first, and each reviewer's latest (what outdates the others).
  await db.schema
    .createIndex("change_request_reviews_by_reviewer")
    .on("change_request_reviews")
    .columns(["change_request_id", "reviewer_id", "id"])
    .execute();
  await db.schema
    .createTable("change_request_review_requests")
    .addColumn("change_request_id", "text", (c) =>
      c.notNull().references("change_requests.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("revision_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("change_request_review_requests_pk", ["change_request_id", "user_id"])
    .execute();
}
