import { type Kysely, SqliteAdapter, sql } from "kysely";

/**
 * Invite links may give no role (their users join as guests) and may be to one space or one
 * collection, whose level is then in `role`; such a link goes with its content.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table invite_links alter column role drop not null`.execute(db);
    await db.schema
      .alterTable("invite_links")
      .addColumn("space_id", "text", (c) => c.references("spaces.id").onDelete("cascade"))
      .execute();
    await db.schema
      .alterTable("invite_links")
      .addColumn("collection_id", "text", (c) => c.references("collections.id").onDelete("cascade"))
      .execute();
    return;
  }
  // SQLite cannot drop a NOT NULL constraint: the table is rebuilt with the same rows.
  await db.schema
    .createTable("invite_links_new")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("role", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("space_id", "text", (c) => c.references("spaces.id").onDelete("cascade"))
    .addColumn("collection_id", "text", (c) => c.references("collections.id").onDelete("cascade"))
    .execute();
  await sql`insert into invite_links_new (id, organization_id, role, created_by, created_at)
    select id, organization_id, role, created_by, created_at from invite_links`.execute(db);
  await db.schema.dropTable("invite_links").execute();
  await db.schema.alterTable("invite_links_new").renameTo("invite_links").execute();
  await db.schema
    .createIndex("invite_links_by_org")
    .on("invite_links")
    .columns(["organization_id", "created_at", "id"])
    .execute();
}
