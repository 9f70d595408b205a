import type { Kysely } from "kysely";

/**
 * When each member was last active and whether they sign in through single sign-on; and the roles
 * users and teams are given on one space or collection (grants). A grant names its content in
 * `content_id` (the space's or the collection's id) and its grantee in `principal_id` (the user's or
 * the team's), so that one key keeps a grantee to one role there; the typed columns beside them
 * carry the foreign keys, so that grants go with their content, user or team.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("memberships").addColumn("last_seen_at", "text").execute();
  await db.schema
    .alterTable("memberships")
    .addColumn("sso", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("content_permissions")
    .addColumn("content_id", "text", (c) => c.notNull())
    .addColumn("principal_id", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("space_id", "text", (c) => c.references("spaces.id").onDelete("cascade"))
    .addColumn("collection_id", "text", (c) => c.references("collections.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("team_id", "text", (c) => c.references("teams.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("content_permissions_pk", ["content_id", "principal_id"])
    .execute();
  // Removing a member drops their grants in the organization; a team's grants go by cascade.
  await db.schema
    .createIndex("content_permissions_by_principal")
    .on("content_permissions")
    .columns(["principal_id", "organization_id"])
    .execute();
}
