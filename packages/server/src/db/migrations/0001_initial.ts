import type { Kysely } from "kysely";

/** Users, tokens, organizations with their members, collections and spaces. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("photo_url", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("use_case", "text")
    .addColumn("community_type", "text")
    .addColumn("hostname", "text", (c) => c.unique())
    .addColumn("email_domains", "text", (c) => c.notNull())
    .addColumn("default_role", "text")
    .addColumn("default_content_site", "text")
    .addColumn("sso", "integer", (c) => c.notNull())
    .addColumn("ai", "integer", (c) => c.notNull())
    .addColumn("invite_links", "integer", (c) => c.notNull())
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("logo_url", "text")
    .addColumn("trial_status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("joined_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("memberships_by_user")
    .on("memberships")
    .columns(["user_id", "organization_id"])
    .execute();

  await db.schema
    .createTable("collections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("parent_id", "text", (c) => c.references("collections.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("default_level", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("collections_by_org")
    .on("collections")
    .columns(["organization_id", "id"])
    .execute();
  await db.schema
    .createIndex("collections_by_parent")
    .on("collections")
    .columns(["organization_id", "parent_id", "position"])
    .execute();

  await db.schema
    .createTable("spaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("parent_id", "text", (c) => c.references("collections.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("emoji", "text", (c) => c.notNull())
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("edit_mode", "text", (c) => c.notNull())
    .addColumn("default_level", "text", (c) => c.notNull())
    .addColumn("revision_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema.createIndex("spaces_by_org").on("spaces").columns(["organization_id", "id"]).execute();
  await db.schema
    .createIndex("spaces_by_parent")
    .on("spaces")
    .columns(["organization_id", "parent_id", "position"])
    .execute();
  await db.schema.createIndex("spaces_by_deleted_at").on("spaces").column("deleted_at").execute();

  await db.schema
    .createTable("revisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("parent_id", "text")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("change_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("change_requests_number", ["space_id", "number"])
    .execute();

  await db.schema
    .createTable("comments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("change_request_id", "text", (c) => c.references("change_requests.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("comments_by_space").on("comments").columns(["space_id", "status"]).execute();
}
