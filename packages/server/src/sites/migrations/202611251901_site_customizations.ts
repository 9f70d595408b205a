import type { Kysely } from "kysely";

/**
 * The customization of sites (one row a site, once set) and the overrides of site spaces (one row a
 * site space that has one), each as JSON. They go with their site or site space.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_customizations")
    .addColumn("site_id", "text", (c) => c.primaryKey().references("sites.id").onDelete("cascade"))
    .addColumn("settings", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("site_space_customizations")
    .addColumn("site_space_id", "text", (c) =>
      c.primaryKey().references("site_spaces.id").onDelete("cascade"),
    )
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("override", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // A published site reads the overrides of all its site spaces at once.
  await db.schema
    .createIndex("site_space_customizations_by_site")
    .on("site_space_customizations")
    .column("site_id")
    .execute();
}
