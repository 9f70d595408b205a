import { type Kysely, sql } from "kysely";

/**
 * OpenAPI specifications of organizations and the versions their processing produced. Both go with
 * their organization, and versions with their specification, by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("openapi_specs")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("source_url", "text")
    .addColumn("source_text", "text")
    .addColumn("source_revision", "integer", (c) => c.notNull())
    .addColumn("processing_state", "text", (c) => c.notNull())
    .addColumn("last_version_id", "text")
    .addColumn("last_processed_at", "text")
    .addColumn("last_process_error_code", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // Also the order of the organization's list.
    .addUniqueConstraint("openapi_specs_slug", ["organization_id", "slug"])
    .execute();
  // The periodic refresh looks for URL sources processed long ago.
  await db.schema
    .createIndex("openapi_specs_by_last_processed")
    .on("openapi_specs")
    .column("last_processed_at")
    .where(sql.ref("source_url"), "is not", null)
    .execute();

  await db.schema
    .createTable("openapi_spec_versions")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("spec_id", "text", (c) => c.notNull().references("openapi_specs.id").onDelete("cascade"))
    .addColumn("url", "text")
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("openapi_spec_versions_by_spec")
    .on("openapi_spec_versions")
    .column("spec_id")
    .execute();
}
