import type { Kysely } from "kysely";

/** Invite links to an organization, each with the role it gives. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("invite_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("invite_links_by_org")
    .on("invite_links")
    .columns(["organization_id", "created_at", "id"])
    .execute();
}
