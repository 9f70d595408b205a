import type { Kysely } from "kysely";

/**
 * Comments get their author, body, target and resolution; replies and reactions get their tables.
 * The defaults only fill rows written before this migration. Replies and reactions go with their
 * comment, by cascade; a reply's reactions are deleted with it by the store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["posted_by", "body_markdown", "target_revision_id"])
    await db.schema
      .alterTable("comments")
      .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
      .execute();
  for (const column of ["edited_at", "target_page_id", "target_node_id", "resolved_at", "resolved_by"])
    await db.schema.alterTable("comments").addColumn(column, "text").execute();
  // The comments of a space's main content or of one change request, in posting order.
  await db.schema
    .createIndex("comments_by_parent")
    .on("comments")
    .columns(["space_id", "change_request_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("comment_replies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("comment_id", "text", (c) => c.notNull().references("comments.id").onDelete("cascade"))
    .addColumn("posted_by", "text", (c) => c.notNull())
    .addColumn("body_markdown", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("edited_at", "text")
    .execute();
  await db.schema
    .createIndex("comment_replies_by_comment")
    .on("comment_replies")
    .columns(["comment_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("comment_reactions")
    .addColumn("comment_id", "text", (c) => c.notNull().references("comments.id").onDelete("cascade"))
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("emoji", "text", (c) => c.notNull())
    .addColumn("reacted_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("comment_reactions_pk", ["subject_id", "user_id", "emoji"])
    .execute();
  await db.schema
    .createIndex("comment_reactions_by_thread")
    .on("comment_reactions")
    .columns(["comment_id"])
    .execute();
}
