import type { Kysely } from "kysely";

/**
 * Redirects of sites; they go with their site. A destination names sections, site spaces and pages
 * by id in a JSON column: one that is gone leaves its redirect in place, and unapplied, until changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_redirects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "text", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("draft", "integer", (c) => c.notNull())
    .addColumn("capture_wildcard", "integer", (c) => c.notNull())
    .addColumn("permanent", "integer", (c) => c.notNull())
    .addColumn("destination", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text")
    // One live and one draft redirect per source; visitors' lookups go by it too.
    .addUniqueConstraint("site_redirects_source", ["site_id", "draft", "source"])
    .execute();
}
