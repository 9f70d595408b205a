import type { Kysely } from "kysely";

/**
 * Translation settings of organizations. `languages` is a JSON array of language codes, read and
 * written whole with its settings; lists page by creation time, hence the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("translation_settings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("languages", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("translation_settings_by_org")
    .on("translation_settings")
    .columns(["organization_id", "created_at", "id"])
    .execute();
}
