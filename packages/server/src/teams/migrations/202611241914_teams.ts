import type { Kysely } from "kysely";

/** Teams of an organization and their members; a team's members go with it, by cascade. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("teams")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("teams_by_org").on("teams").columns(["organization_id", "id"]).execute();

  await db.schema
    .createTable("team_members")
    .addColumn("team_id", "text", (c) => c.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("team_members_pk", ["team_id", "user_id"])
    .execute();
  // The teams of a user: their counts, and the team grants that reach them on content.
  await db.schema
    .createIndex("team_members_by_user")
    .on("team_members")
    .columns(["user_id", "team_id"])
    .execute();
}
