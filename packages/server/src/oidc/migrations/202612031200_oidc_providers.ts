import type { Kysely } from "kysely";

/** OpenID Connect providers of organizations; a deleted team stops being any provider's default. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("oidc_providers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("issuer", "text", (c) => c.notNull())
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("client_secret", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("default_team_id", "text", (c) => c.references("teams.id").onDelete("set null"))
    .addColumn("default_role", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("oidc_providers_by_org")
    .on("oidc_providers")
    .columns(["organization_id", "created_at", "id"])
    .execute();
}
