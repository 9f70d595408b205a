import type { Kysely } from "kysely";

/** Sections of sites and the groups gathering them; both go with their site. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_section_groups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("icon", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_section_groups_by_site")
    .on("site_section_groups")
    .columns(["site_id", "position"])
    .execute();

  await db.schema
    .createTable("site_sections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    // Deleting a group puts its sections back at the top level first; the FK only guards against a dangling id.
    .addColumn("group_id", "text", (c) => c.references("site_section_groups.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("condition", "text")
    .addColumn("icon", "text")
    .addColumn("is_default", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("site_sections_path", ["site_id", "path"])
    .execute();
  await db.schema.createIndex("site_sections_by_group").on("site_sections").column("group_id").execute();
}
