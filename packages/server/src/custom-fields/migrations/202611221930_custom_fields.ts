import type { Kysely } from "kysely";

/**
 * Custom fields of organizations and the values spaces give them. A value is JSON text in the
 * shape of its field's type; a space without a value for a field has no row. Values go with their
 * field and with their space (also when a deleted space is purged), by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("custom_fields")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("placeholder", "text", (c) => c.notNull())
    .addColumn("options", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("custom_fields_name", ["organization_id", "name"])
    .execute();
  await db.schema
    .createIndex("custom_fields_by_org")
    .on("custom_fields")
    .columns(["organization_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("space_custom_field_values")
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("custom_field_id", "text", (c) =>
      c.notNull().references("custom_fields.id").onDelete("cascade"),
    )
    .addColumn("value", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("space_custom_field_values_pk", ["space_id", "custom_field_id"])
    .execute();
  // Deleting a field or changing its options finds its values without reading every space's.
  await db.schema
    .createIndex("space_custom_field_values_by_field")
    .on("space_custom_field_values")
    .column("custom_field_id")
    .execute();
}
