import type { CreateTableBuilder, Kysely } from "kysely";

const repositoryColumns = <T extends string>(table: CreateTableBuilder<T>) =>
  table
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("credentials", "text")
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("project_directory", "text", (c) => c.notNull())
    .addColumn("tree_url", "text")
    .addColumn("commit_url", "text");

/**
 * Git Sync: a space's repository (one per space), its operations (run one at a time per space, in
 * their order, hence the index) and which file holds which page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await repositoryColumns(
    db.schema
      .createTable("git_sync_connections")
      .addColumn("space_id", "text", (c) => c.primaryKey().references("spaces.id").onDelete("cascade")),
  )
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("synced_commit", "text")
    .addColumn("synced_revision", "text")
    .addColumn("synced_by", "text", (c) => c.notNull())
    .addColumn("webhook_secret", "text")
    .addColumn("polled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await repositoryColumns(
    db.schema
      .createTable("git_sync_operations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade")),
  )
    .addColumn("direction", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("stage", "text")
    .addColumn("ordering", "text", (c) => c.notNull())
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("force", "integer", (c) => c.notNull())
    .addColumn("standalone", "integer", (c) => c.notNull())
    .addColumn("commit_message", "text")
    .addColumn("lease_until", "text")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("error", "text")
    .addColumn("commit", "text")
    .addColumn("revision", "text")
    .addColumn("change_request_id", "text")
    .execute();
  await db.schema
    .createIndex("git_sync_operations_in_order")
    .on("git_sync_operations")
    .columns(["space_id", "ordering", "id"])
    .execute();
  await db.schema
    .createTable("git_sync_pages")
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("page_id", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("git_sync_pages_pk", ["space_id", "page_id"])
    .execute();
}
