import { type Kysely, SqliteAdapter, sql } from "kysely";

/** A membership's role may be null: the member is a guest, who sees only content granted to them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table memberships alter column role drop not null`.execute(db);
    return;
  }
  // SQLite cannot drop a NOT NULL constraint: the table is rebuilt with the same rows.
  await db.schema
    .createTable("memberships_new")
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text")
    .addColumn("joined_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id"])
    .execute();
  await sql`insert into memberships_new (organization_id, user_id, role, joined_at)
    select organization_id, user_id, role, joined_at from memberships`.execute(db);
  await db.schema.dropTable("memberships").execute();
  await db.schema.alterTable("memberships_new").renameTo("memberships").execute();
  await db.schema
    .createIndex("memberships_by_user")
    .on("memberships")
    .columns(["user_id", "organization_id"])
    .execute();
}
