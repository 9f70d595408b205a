import type { Kysely } from "kysely";

/**
 * Sites of organizations, with their visitor authentication settings, and their share links. A
 * site's structure (sections, groups, site spaces) lives in the site-sections and site-spaces areas.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sites")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("basename", "text")
    .addColumn("proxy_origin", "text", (c) => c.unique())
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("published", "integer", (c) => c.notNull())
    .addColumn("adaptive_content", "integer", (c) => c.notNull())
    .addColumn("adaptive_schema", "text")
    .addColumn("adaptive_schema_updated_at", "text")
    .addColumn("auth_backend", "text", (c) => c.notNull())
    .addColumn("auth_key", "text", (c) => c.notNull())
    .addColumn("auth_fallback_url", "text")
    .addColumn("auth_logout_url", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // Several sites without a basename are fine: NULLs never collide.
    .addUniqueConstraint("sites_basename", ["organization_id", "basename"])
    .execute();
  await db.schema.createIndex("sites_by_org").on("sites").columns(["organization_id", "id"]).execute();

  await db.schema
    .createTable("site_share_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("share_key", "text", (c) => c.notNull().unique())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_share_links_by_site")
    .on("site_share_links")
    .columns(["site_id", "id"])
    .execute();
}
