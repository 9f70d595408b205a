import type { Kysely } from "kysely";

/**
 * Integrations and their installations. Definitions keep their structured parts as JSON text, read
 * and written whole at each publication; what lists filter on beyond plain columns (the domains
 * blocks unfurl, the external ids of installations) has its own rows, so that every filter is plain
 * SQL on both databases. Unpublishing deletes everything below an integration by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("integrations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("owner_organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("search_title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("summary", "text")
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("verified", "integer", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("categories", "text", (c) => c.notNull())
    .addColumn("blocks", "text", (c) => c.notNull())
    .addColumn("content_sources", "text", (c) => c.notNull())
    .addColumn("external_links", "text", (c) => c.notNull())
    .addColumn("configurations", "text")
    .addColumn("content_security_policy", "text")
    .addColumn("script", "text", (c) => c.notNull())
    .addColumn("secrets", "text", (c) => c.notNull())
    .addColumn("icon", "text")
    .addColumn("preview_images", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("integrations_by_owner")
    .on("integrations")
    .columns(["owner_organization_id", "name"])
    .execute();

  await db.schema
    .createTable("integration_images")
    .addColumn("integration_id", "text", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("integration_images_pk", ["integration_id", "hash"])
    .execute();

  await db.schema
    .createTable("integration_block_domains")
    .addColumn("integration_id", "text", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("domain", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("integration_block_domains_pk", ["integration_id", "domain"])
    .execute();
  await db.schema
    .createIndex("integration_block_domains_by_domain")
    .on("integration_block_domains")
    .columns(["domain", "integration_id"])
    .execute();

  await db.schema
    .createTable("integration_installations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("integration_id", "text", (c) => c.notNull().references("integrations.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("space_selection", "text", (c) => c.notNull())
    .addColumn("site_selection", "text", (c) => c.notNull())
    .addColumn("configuration", "text", (c) => c.notNull())
    .addColumn("external_ids", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("integration_installations_once_per_org", ["integration_id", "organization_id"])
    .execute();
  await db.schema
    .createIndex("integration_installations_by_org")
    .on("integration_installations")
    .columns(["organization_id"])
    .execute();

  await db.schema
    .createTable("integration_installation_external_ids")
    .addColumn("installation_id", "text", (c) =>
      c.notNull().references("integration_installations.id").onDelete("cascade"),
    )
    .addColumn("external_id", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("integration_installation_external_ids_pk", ["installation_id", "external_id"])
    .execute();
  await db.schema
    .createIndex("integration_installation_external_ids_by_id")
    .on("integration_installation_external_ids")
    .columns(["external_id", "installation_id"])
    .execute();
}
