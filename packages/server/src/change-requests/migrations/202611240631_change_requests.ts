import type { Kysely } from "kysely";

/**
 * Revisions get their content (the root of their page trie) and a second parent for merges and
 * updates; change requests get their subject, author, times and revisions, and a table of who
 * contributed to them. The defaults only fill rows written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("revisions").addColumn("merge_parent_id", "text").execute();
  await db.schema.alterTable("revisions").addColumn("root", "text").execute();

  for (const column of [
    "subject",
    "created_by",
    "updated_at",
    "recency",
    "revision_id",
    "revision_initial_id",
  ])
    await db.schema
      .alterTable("change_requests")
      .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
      .execute();
  for (const column of ["revision_merged_ancestor_id", "revision_merged_id"])
    await db.schema.alterTable("change_requests").addColumn(column, "text").execute();
  // The list of a space's change requests, by status, newest first.
  await db.schema
    .createIndex("change_requests_by_status")
    .on("change_requests")
    .columns(["space_id", "status", "recency", "id"])
    .execute();

  await db.schema
    .createTable("change_request_contributors")
    .addColumn("change_request_id", "text", (c) =>
      c.notNull().references("change_requests.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("change_request_contributors_pk", ["change_request_id", "user_id"])
    .execute();
}
