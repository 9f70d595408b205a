import type { Kysely } from "kysely";

/**
 * Spaces linked into sites. A link goes with its site or section; a space purged for good takes
 * its links with it. Deleting a site or a section never deletes a space.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_spaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("section_id", "text", (c) => c.references("site_sections.id").onDelete("cascade"))
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("condition", "text")
    .addColumn("is_default", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_spaces_by_site")
    .on("site_spaces")
    .columns(["site_id", "section_id", "position"])
    .execute();
  // `listSites?space=` and the purge of a space find its links without reading every site's.
  await db.schema.createIndex("site_spaces_by_space").on("site_spaces").column("space_id").execute();
}
